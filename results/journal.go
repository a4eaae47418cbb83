package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// JournalPath returns the path of the journal kept next to a Parquet output:
// the output path with ".journal.jsonl" appended.
func JournalPath(output string) string { return output + ".journal.jsonl" }

// readJournal reads every complete record of a JSON-lines journal. A last
// line without its newline (a write cut short by a crash) is ignored, and
// its offset is returned as good so the caller can truncate it away. A
// malformed complete line is an error naming the line.
func readJournal(path string, each func(line []byte) error) (good int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	lineNo := 0
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return good, nil // a partial last line (len > 0) is a torn write
		}
		if err != nil {
			return good, err
		}
		lineNo++
		if len(bytes.TrimSpace(line)) > 0 {
			if err := each(line); err != nil {
				var nd notDamage
				if errors.As(err, &nd) {
					return good, fmt.Errorf("%s:%d: %w", path, lineNo, nd.error)
				}
				return good, &DamagedJournalError{Path: path, Line: lineNo, Err: err}
			}
		}
		good += int64(len(line))
	}
}

// readRecords reads the records of a cell journal.
func readRecords(path string, each func(rec *Record) error) (int64, error) {
	return readJournal(path, func(line []byte) error {
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil {
			return err
		}
		if rec.Cell.ID == "" {
			return errors.New("record without a cell id")
		}
		return each(&rec)
	})
}

// openAppend opens a journal for appending, creating it, after cutting off
// a torn last line. O_APPEND makes every write of a whole line land at the
// end in one piece.
func openAppend(path string, good int64) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.Size() > good {
		if err := f.Truncate(good); err != nil {
			f.Close()
			return nil, err
		}
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// notDamage marks an error of a well-formed journal line (a record of
// another experiment): the journal is refused, not repaired.
type notDamage struct{ error }
