package worker

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schedfarm/schedfarm/broker"
	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/internal/wire"
	"github.com/schedfarm/schedfarm/runner"
)

// DefaultMaxCellBytes bounds the size of a cell message a worker accepts.
// A real cell is a few hundred bytes to a few kilobytes.
const DefaultMaxCellBytes = 1 << 20

// Gate admits the cell messages a worker takes from the queue: it decodes
// and checks one and returns the cell to run, or an error saying why the
// worker refuses it. A refused cell is never run; the worker reports it as
// a failed cell with the error, under the digest of the message, and acks
// it.
type Gate interface {
	Admit(subject string, data []byte) (runner.Cell, error)
}

// DecodeOnly is a Gate that only decodes (DecodeCell): for tests and tools
// that run hand-made cells that no spec produced. Workers that take cells
// from a network use a Trust.
type DecodeOnly struct {
	// MaxBytes bounds the message; DefaultMaxCellBytes when zero.
	MaxBytes int
}

// Admit decodes the message.
func (d DecodeOnly) Admit(subject string, data []byte) (runner.Cell, error) {
	return DecodeCell(subject, data, d.MaxBytes)
}

// DecodeCell decodes a cell message strictly: at most maxBytes
// (DefaultMaxCellBytes when ≤ 0), valid UTF-8, one JSON object with the
// fields of runner.Cell and no others, nothing after it. Each parameter's
// own object is read by runner.Param's decoder, which ignores keys other
// than name, value and type (what a parameter is made of comes through
// whole; Trust re-checks it against the spec). The cell
// must have an experiment, an id, a scheduler, parameters sorted by unique
// non-empty names, and a replication and index ≥ 0; when subject is not
// empty it must be the cell's own subject (broker.CellSubject). The exact
// form a coordinator writes (runner.EncodeCell) is read without reflection
// by runner.DecodeCellWire, which decodes what the strict decoder would.
func DecodeCell(subject string, data []byte, maxBytes int) (runner.Cell, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxCellBytes
	}
	c, ok := runner.Cell{}, false
	if len(data) <= maxBytes {
		// The form a coordinator writes, read without reflection; it
		// decodes to what the strict decoder would (runner.DecodeCellWire).
		c, ok = runner.DecodeCellWire(data)
	}
	if !ok {
		var err error
		if c, err = wire.DecodeStrict[runner.Cell](data, maxBytes, "cell", "runner.Cell"); err != nil {
			return c, err
		}
	}
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if c.Experiment == "" {
		bad("experiment: empty; accepted: the spec's name")
	}
	if c.ID == "" {
		bad("id: empty; accepted: the cell's stable hash")
	}
	if c.Scheduler == "" {
		bad("scheduler: empty; accepted: a scheduler name")
	}
	if c.Replication < 0 {
		bad("replication %d; accepted: ≥ 0", c.Replication)
	}
	if c.Index < 0 {
		bad("index %d; accepted: ≥ 0", c.Index)
	}
	for i, p := range c.Params {
		switch {
		case p.Name == "":
			bad("params[%d]: empty name", i)
		case i > 0 && p.Name <= c.Params[i-1].Name:
			bad("params[%d] %q: after %q; accepted: unique names in sorted order", i, p.Name, c.Params[i-1].Name)
		}
	}
	if len(errs) == 0 && subject != "" {
		if want := broker.CellSubject(c.Experiment, c.ID); subject != want {
			bad("cell %s of experiment %s arrived on subject %s; accepted: its own subject %s", c.ID, c.Experiment, subject, want)
		}
	}
	if len(errs) > 0 {
		return c, errors.New(strings.Join(errs, "; "))
	}
	return c, nil
}

// Trust is the Gate of a worker that trusts nothing on the wire: it
// decodes the message (DecodeCell), checks the files the cell names against
// the data root (DataRoot.Resolve), and re-validates the cell as the
// coordinator validated its spec (experiments.CheckCell, through an
// experiments.CellChecker: each spec point is validated once, and each
// cell's replication, ID and seed are checked on their own).
type Trust struct {
	root     *DataRoot
	check    *experiments.CellChecker
	maxBytes int
}

// NewTrust returns the gate for root and cat (the worker's catalog:
// experiments.NewCatalog of its family catalog); maxBytes bounds a message
// (DefaultMaxCellBytes when ≤ 0). Its re-check remembers
// experiments.DefaultCheckCacheSize spec points.
func NewTrust(root *DataRoot, cat experiments.Catalog, maxBytes int) *Trust {
	return newTrust(root, cat, maxBytes, 0)
}

// newTrust is NewTrust with the size of the re-check's cache (the
// default when ≤ 0).
func newTrust(root *DataRoot, cat experiments.Catalog, maxBytes, cacheSize int) *Trust {
	return &Trust{root: root, check: experiments.NewCellChecker(newPluginCache(cat), cacheSize), maxBytes: maxBytes}
}

// Admit decodes, resolves and re-validates a cell message.
func (t *Trust) Admit(subject string, data []byte) (runner.Cell, error) {
	c, err := DecodeCell(subject, data, t.maxBytes)
	if err != nil {
		return c, err
	}
	if c, err = t.root.Resolve(c); err != nil {
		return c, err
	}
	return c, t.check.Check(c)
}

// pluginCache is a Catalog that remembers what it learnt from each plugin
// executable (by path, size and modification time), so that a worker does
// not start a plugin twice per cell to check and then run it.
type pluginCache struct {
	experiments.Catalog
	mu    sync.Mutex
	infos map[pluginKey]experiments.PluginInfo
}

type pluginKey struct {
	path string
	size int64
	mod  time.Time
}

func newPluginCache(cat experiments.Catalog) *pluginCache {
	return &pluginCache{Catalog: cat, infos: map[pluginKey]experiments.PluginInfo{}}
}

// Plugin describes the plugin at path, from the cache when the file is
// unchanged.
func (p *pluginCache) Plugin(path string) (experiments.PluginInfo, error) {
	pc, ok := p.Catalog.(experiments.PluginCatalog)
	if !ok {
		return experiments.PluginInfo{}, errors.New("this worker's scheduler catalog runs no plugins")
	}
	st, err := os.Stat(path)
	if err != nil {
		return experiments.PluginInfo{}, err
	}
	key := pluginKey{path, st.Size(), st.ModTime()}
	p.mu.Lock()
	info, ok := p.infos[key]
	p.mu.Unlock()
	if ok {
		return info, nil
	}
	if info, err = pc.Plugin(path); err != nil {
		return info, err
	}
	p.mu.Lock()
	p.infos[key] = info
	p.mu.Unlock()
	return info, nil
}

// ModelSchedulers delegates to the wrapped catalog when it is a
// FamilyCatalog.
func (p *pluginCache) ModelSchedulers(model string) []string {
	if fc, ok := p.Catalog.(experiments.FamilyCatalog); ok {
		return fc.ModelSchedulers(model)
	}
	return nil
}

// CheckModelScheduler delegates to the wrapped catalog when it is a
// FamilyCatalog.
func (p *pluginCache) CheckModelScheduler(model, name string, params map[string]any) error {
	if fc, ok := p.Catalog.(experiments.FamilyCatalog); ok {
		return fc.CheckModelScheduler(model, name, params)
	}
	return fmt.Errorf("model %q has no scheduler family in this catalog", model)
}

// Digest returns the hex SHA-256 of a message: what a worker reports as
// CellResult.CellDigest and a coordinator compares with the cell it
// published.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
