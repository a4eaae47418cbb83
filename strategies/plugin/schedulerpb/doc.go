// Package schedulerpb is the generated Go code of the scheduler plugin
// protocol, scheduler.proto (package schedfarm.scheduler.v1), which
// documents the protocol in full. Regenerate it, and the Python module
// examples/plugins/python/scheduler_pb2.py, with scripts/gen-plugin-proto
// (protoc from Debian's protobuf-compiler, protoc-gen-go and
// protoc-gen-go-grpc from the Go module proxy at the versions named there),
// which runs the go:generate lines below.
package schedulerpb

//go:generate protoc -I . --go_out=. --go_opt=paths=source_relative --go-grpc_out=. --go-grpc_opt=paths=source_relative scheduler.proto
//go:generate protoc -I . --python_out=../../../examples/plugins/python scheduler.proto
