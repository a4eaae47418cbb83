package main

import (
	"sync"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/results"
	"github.com/schedfarm/schedfarm/runner"
)

// catalog is the family catalog of the binary, built once, the first time
// a command needs it, and passed from here to everything that uses it:
// the runner, spec validation, the worker's re-check, the results
// glossary, the tuner.
var catalog = sync.OnceValue(families.Builtin)

// simulator is the runner of the binary's catalog.
func simulator() *runner.Runner { return runner.New(catalog()) }

// specCatalog is what specs are validated against.
func specCatalog() experiments.Catalog { return experiments.NewCatalog(catalog()) }

// glossary describes the results' columns.
func glossary() *results.Glossary { return results.NewGlossary(catalog()) }
