package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/schedfarm/schedfarm/internal/buildinfo"
)

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: schedfarm version\n\nPrints the schedfarm version, the git commit it was built from and the Go version.")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fmt.Fprintf(stdout, "schedfarm %s (commit %s, %s)\n", buildinfo.Version, buildinfo.Commit(), buildinfo.GoVersion())
	return 0
}
