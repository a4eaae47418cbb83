// The tools CI runs that are not part of schedfarm (.ci/run), pinned with
// their checksums in a module of their own, so that the product's go.mod
// carries none of their dependencies. Update with
//   cd .ci/tools && go get -tool honnef.co/go/tools/cmd/staticcheck@VERSION
module schedfarm.ci/tools

go 1.26.0

tool honnef.co/go/tools/cmd/staticcheck

require (
	github.com/BurntSushi/toml v1.4.1-0.20240526193622-a339e1f7089c // indirect
	golang.org/x/exp/typeparams v0.0.0-20231108232855-2478ac86f678 // indirect
	golang.org/x/mod v0.41.0 // indirect
	golang.org/x/sync v0.23.0 // indirect
	golang.org/x/tools v0.51.0 // indirect
	honnef.co/go/tools v0.8.2 // indirect
)
