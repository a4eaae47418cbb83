package results

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzJournal: any journal content is read without panic; the good prefix
// ends at a line boundary inside the data, and every record read has a
// cell id. Seeds: a valid line, a torn last line, JSON of the wrong shape.
//
//	go test -run XXX -fuzz FuzzJournal -fuzztime 1000000x ./results
func FuzzJournal(f *testing.F) {
	good := `{"cell":{"experiment":"e","id":"abc","index":0,"scheduler":"easy","params":[{"name":"workload.load","value":0.5,"type":"float"}],"replication":0,"seed":1},"result":{"cell_id":"abc","status":"ok","metrics":[{"name":"wait_mean","value":12}],"wall_seconds":0.1,"worker":"w","version":"v","go_version":"go","commit":"c"}}` + "\n"
	f.Add([]byte(good))
	f.Add([]byte(good + good[:40]))
	f.Add([]byte("{\"cell\":{}}\n"))
	f.Add([]byte("[1,2,3]\n\n  \n"))
	f.Add([]byte{0xff, '\n', '{'})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "j.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		n := 0
		goodLen, err := readRecords(p, func(rec *Record) error {
			if rec.Cell.ID == "" {
				t.Fatal("record without a cell id passed")
			}
			n++
			return nil
		})
		if goodLen < 0 || goodLen > int64(len(data)) {
			t.Fatalf("good prefix %d of %d bytes", goodLen, len(data))
		}
		if goodLen > 0 && data[goodLen-1] != '\n' {
			t.Fatalf("good prefix %d does not end a line", goodLen)
		}
		_ = err
	})
}
