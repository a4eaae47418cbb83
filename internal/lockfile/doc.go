// Package lockfile gives one process at a time the ownership of a file
// system object (an experiment's output, an embedded broker's store).
//
// A lock is a file locked with flock(2), exclusive and non-blocking. The
// kernel releases it when its holder exits, however it exits (kill -9
// included), so a crash never leaves a stale lock behind and nothing needs
// to be cleaned up by hand. While it is held the file names its holder
// (process id, host, command, since when, and what it is doing) as one JSON
// object, so a refused process can say who holds it; it is emptied when
// the holder lets it go, and the file itself stays (removing it would let
// two processes lock two different files of one name). A locked file that
// names nobody is a holder taking or letting go of the lock: Acquire tries
// again rather than refuse without a name.
//
// flock is advisory: it binds the processes that take it (every schedfarm
// command that writes an output or runs an embedded broker), works across
// containers that share a host's file system, and on NFS where the server
// supports byte-range locks (Linux maps flock onto them). On systems
// without flock, Acquire succeeds without locking.
package lockfile
