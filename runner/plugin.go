package runner

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/schedfarm/schedfarm/strategies/plugin"
)

// ResolvePath returns a path a cell or spec names (a trace, a plugin)
// resolved against dir, the spec's directory.
func ResolvePath(dir, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// openPlugin starts the cell's plugin for a run: its binary must still be
// the one the cell was made for (the file at the cell's path on this
// worker, hashed again); otherwise the cell is refused.
func openPlugin(c Cell) (*plugin.Plugin, error) {
	bin := plugin.Binary{Path: ResolvePath(c.Dir, c.Plugin.Path), SHA256: c.Plugin.SHA256}
	if err := bin.Verify(); err != nil {
		return nil, fmt.Errorf("worker refuses the cell: %w", err)
	}
	opts := plugin.Options{PassTimeout: time.Duration(c.Plugin.PassTimeout * float64(time.Second))}
	return plugin.Open(bin, opts)
}

// withPlugin points cfg at the cell's plugin (a registry holding only it,
// under the cell's scheduler name); the returned function closes it.
func withPlugin(c Cell, cfg Config) (Config, func(), error) {
	p, err := openPlugin(c)
	if err != nil {
		return cfg, nil, err
	}
	reg, err := p.Registry(c.Scheduler, cfg.Seed)
	if err != nil {
		p.Close()
		return cfg, nil, err
	}
	cfg.Registry = reg
	return cfg, func() { p.Close() }, nil
}
