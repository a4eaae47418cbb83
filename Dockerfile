# The schedfarm image: the static binary FROM scratch, nothing pulled.
# Build it with scripts/build-image, which compiles the binary on this
# machine and stages the build context this file expects:
#
#   rootfs/    /usr/local/bin/schedfarm, /etc/ssl/certs/ca-certificates.crt
#              (for TLS to remote brokers), /etc/passwd and /etc/group
#   writable/  /data and /state, owned by the schedfarm user
#
# One image for every role: broker, coordinator, worker, run.
# Dockerfile.multistage builds the same image where golang:1.26 can be
# pulled; its runtime stage is this file's, line for line.
FROM scratch
COPY rootfs/ /
COPY --chown=65532:65532 writable/ /
USER 65532:65532
WORKDIR /data
EXPOSE 4222 6222
ENTRYPOINT ["/usr/local/bin/schedfarm"]
CMD ["--help"]
