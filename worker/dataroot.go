package worker

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/schedfarm/schedfarm/runner"
)

// DataRoot is the directory a worker reads the files cells name (traces,
// plugin executables) from, and the only one: a cell comes from the
// network, so its paths are relative to the root and may not leave it.
//
// A cell's Dir (the spec's directory, relative to the coordinator's data
// root) joined with a file parameter (workload.trace, the plugin path)
// names the file relative to the root. Absolute paths, paths that climb out
// of the root with "..", and symbolic links that lead out of it are
// refused; the check opens the file through an os.Root, which resolves
// links inside the root only. The file is then read by its path under the
// root: whoever can replace files inside the root after the check is
// trusted (they control the worker's data already).
type DataRoot struct {
	dir  string // absolute
	root *os.Root
}

// OpenDataRoot opens dir ("" or "." for the working directory) as a data
// root. The directory must exist.
func OpenDataRoot(dir string) (*DataRoot, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("data root %s: %w", dir, err)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("data root %s: %w; accepted: an existing directory (--data-root)", dir, err)
	}
	return &DataRoot{dir: abs, root: root}, nil
}

// Dir returns the root's absolute path.
func (r *DataRoot) Dir() string { return r.dir }

// Close releases the root.
func (r *DataRoot) Close() error { return r.root.Close() }

// FileParams returns the files a cell names, as (field, path) pairs in a
// fixed order: the trace, then the plugin executable.
func FileParams(c runner.Cell) [][2]string {
	var out [][2]string
	for _, p := range c.Params {
		if p.Name == "workload.trace" {
			if s, ok := p.Value.(string); ok {
				out = append(out, [2]string{p.Name, s})
			} else {
				out = append(out, [2]string{p.Name, fmt.Sprint(p.Value)})
			}
		}
	}
	if c.Plugin != nil {
		out = append(out, [2]string{"plugin.path", c.Plugin.Path})
	}
	return out
}

// Resolve checks every file the cell names against the root and returns
// the cell with Dir made the absolute directory under the root that its
// relative paths resolve against (what runner.Runner.RunCell expects). A cell
// that names no file gets the root itself as Dir. The error names the
// field, the path and what is accepted.
func (r *DataRoot) Resolve(c runner.Cell) (runner.Cell, error) {
	files := FileParams(c)
	if len(files) == 0 {
		c.Dir = r.dir
		return c, nil
	}
	dir := filepath.FromSlash(c.Dir)
	if dir == "" {
		dir = "."
	}
	if filepath.IsAbs(dir) || !filepath.IsLocal(dir) {
		return c, fmt.Errorf("dir %q: leaves the data root; accepted: a directory relative to the data root %s, without \"..\" above it (coordinators publish the spec's directory so)", c.Dir, r.dir)
	}
	for _, f := range files {
		field, p := f[0], filepath.FromSlash(f[1])
		switch {
		case p == "":
			return c, fmt.Errorf("%s: empty; accepted: a path relative to the spec's directory", field)
		case filepath.IsAbs(p):
			return c, fmt.Errorf("%s %q: an absolute path; accepted: a path relative to the spec's directory, inside the worker's data root %s", field, f[1], r.dir)
		}
		rel := filepath.Join(dir, p)
		if !filepath.IsLocal(rel) {
			return c, fmt.Errorf("%s %q (in dir %q): leaves the data root with \"..\"; accepted: a file inside the worker's data root %s", field, f[1], c.Dir, r.dir)
		}
		if err := r.checkFile(rel); err != nil {
			return c, fmt.Errorf("%s %q: %w", field, f[1], err)
		}
	}
	c.Dir = filepath.Join(r.dir, dir)
	return c, nil
}

// checkFile opens rel through the root (no escape by link) and checks that
// it is a regular file.
func (r *DataRoot) checkFile(rel string) error {
	f, err := r.root.Open(rel)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			// os.Root reports a link out of the root as a path error
			// ("path escapes from parent").
			return fmt.Errorf("refused: %v; accepted: a file inside the worker's data root %s (symbolic links may not lead out of it)", pe.Err, r.dir)
		}
		return fmt.Errorf("%v (looked up inside the worker's data root %s)", err, r.dir)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("not a regular file (%s) in the data root %s", st.Mode().Type(), r.dir)
	}
	return nil
}
