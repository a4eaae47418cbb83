package worker

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/families"
)

// fuzzRoot is a data root with one trace, for FuzzCell.
func fuzzRoot(f *testing.F) *DataRoot {
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "trace.swf"), []byte("; MaxProcs: 16\n1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		f.Fatal(err)
	}
	root, err := OpenDataRoot(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { root.Close() })
	return root
}

// FuzzCell: the cell message a worker decodes from NATS. Any input is
// either refused with an error (DecodeCell, the data root, CheckCell) or
// is a cell whose JSON encoding decodes to the same encoding, whose files
// lie inside the data root, and whose ID and seed are the ones spec
// expansion derives for its parameters (CheckCell recomputes them), and
// the cached re-check (experiments.CellChecker) answers as CheckCell.
// Nothing panics.
func FuzzCell(f *testing.F) {
	root := fuzzRoot(f)
	cat := newPluginCache(experiments.NewCatalog(families.Builtin()))
	chk := experiments.NewCellChecker(cat, 16)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCell("", data, 1<<16)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		b1, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("a decoded cell does not encode: %v", err)
		}
		c2, err := DecodeCell("", b1, 1<<16)
		if err != nil {
			t.Fatalf("the encoding of a decoded cell does not decode: %v\n%s", err, b1)
		}
		if b2, _ := json.Marshal(c2); !bytes.Equal(b1, b2) {
			t.Fatalf("round trip changed the cell:\n%s\n%s", b1, b2)
		}
		rc, err := root.Resolve(c)
		if err != nil {
			return
		}
		for _, fp := range FileParams(rc) {
			full := filepath.Join(rc.Dir, fp[1])
			if !strings.HasPrefix(full, root.Dir()+string(filepath.Separator)) {
				t.Fatalf("%s %q resolves to %s, outside the data root %s", fp[0], fp[1], full, root.Dir())
			}
		}
		err = experiments.CheckCell(rc, cat)
		// The worker's cached re-check (shared by the inputs, so that
		// they meet each other's cached points) answers as CheckCell.
		if cerr := chk.Check(rc); (cerr == nil) != (err == nil) || err != nil && cerr.Error() != err.Error() {
			t.Fatalf("the cached re-check says %v; CheckCell says %v", cerr, err)
		}
		if err != nil {
			return
		}
		idName := rc.Scheduler
		if rc.Plugin != nil {
			idName += "@sha256:" + rc.Plugin.SHA256
		}
		if id := experiments.CellID(rc.Experiment, rc.BaseSeed, idName, rc.Params, rc.Replication); id != rc.ID {
			t.Fatalf("accepted cell has id %s; its parameters give %s", rc.ID, id)
		}
	})
}
