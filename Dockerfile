# One image for every schedfarm role (broker, coordinator, worker, run).
# Build: docker build -t schedfarm .   (docker compose build does the same)

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=0.1.0-dev
# The build context has no .git, so the commit comes in as a build argument:
#   docker compose build --build-arg COMMIT=$(git rev-parse HEAD)
ARG COMMIT=unknown
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X github.com/schedfarm/schedfarm/internal/buildinfo.Version=${VERSION} -X github.com/schedfarm/schedfarm/internal/buildinfo.CommitOverride=${COMMIT}" \
      -o /out/schedfarm ./cmd/schedfarm

# A static binary needs no libc: distroless/static has CA certificates (for
# TLS to a remote broker) and nothing else.
FROM gcr.io/distroless/static-debian12
COPY --from=build /out/schedfarm /usr/local/bin/schedfarm
WORKDIR /data
EXPOSE 4222
ENTRYPOINT ["/usr/local/bin/schedfarm"]
CMD ["--help"]
