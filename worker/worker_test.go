package worker

import (
	"runtime/debug"
	"strings"
	"testing"
)

func panicker() { panic("boom") }

func TestStackHeadStartsAtThePanickingFrame(t *testing.T) {
	var head string
	func() {
		defer func() {
			recover()
			head = stackHead(debug.Stack(), 4)
		}()
		panicker()
	}()
	lines := strings.Split(head, "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines; want 4:\n%s", len(lines), head)
	}
	if !strings.Contains(lines[0], "worker.panicker") || !strings.Contains(lines[1], "worker_test.go") {
		t.Errorf("stack head does not start at the panicking function:\n%s", head)
	}
}
