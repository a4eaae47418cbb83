package plugin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Binary is a plugin executable, identified by its content.
type Binary struct {
	// Path is the executable's absolute path.
	Path string
	// SHA256 is the hex SHA-256 of its content.
	SHA256 string
}

// Short returns the first 12 hex digits of the SHA-256, for messages.
func (b Binary) Short() string {
	if len(b.SHA256) > 12 {
		return b.SHA256[:12]
	}
	return b.SHA256
}

// Hash reads the executable at path and returns it with its SHA-256. The
// error says what is wrong and what would be accepted: a missing file, a
// directory, a file without execute permission.
func Hash(path string) (Binary, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Binary{}, fmt.Errorf("plugin %s: %v", path, err)
	}
	f, err := os.Open(abs)
	if err != nil {
		return Binary{}, fmt.Errorf("plugin %s: %v; accepted: the path of an executable scheduler plugin", path, unwrapPath(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Binary{}, fmt.Errorf("plugin %s: %v", path, err)
	}
	if !st.Mode().IsRegular() {
		return Binary{}, fmt.Errorf("plugin %s: not a regular file; accepted: the path of an executable scheduler plugin", path)
	}
	if st.Mode().Perm()&0o111 == 0 {
		return Binary{}, fmt.Errorf("plugin %s: not executable (mode %v); accepted: an executable file (chmod +x)", path, st.Mode().Perm())
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return Binary{}, fmt.Errorf("plugin %s: %v", path, err)
	}
	return Binary{Path: abs, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// Verify hashes the file at b.Path again and reports an error when its
// content is no longer the one b names: a worker whose copy of a plugin
// differs from the coordinator's refuses the cell with this error.
func (b Binary) Verify() error {
	now, err := Hash(b.Path)
	if err != nil {
		return err
	}
	if now.SHA256 != b.SHA256 {
		return fmt.Errorf("plugin %s: the binary here has SHA-256 %s, the cell was made for %s; "+
			"refusing to run a different build (give every worker the same file at this path: see README, Scheduler plugins)",
			b.Path, now.Short(), b.Short())
	}
	return nil
}

// unwrapPath drops the path from an *os.PathError, which the caller names
// already.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
