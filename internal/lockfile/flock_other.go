//go:build !unix

package lockfile

import (
	"errors"
	"os"
)

var errLocked = errors.New("locked")

// Without flock a lock is not enforced.
func tryLock(*os.File) error { return nil }

func unlock(*os.File) error { return nil }
