// Package notebooks holds the example notebook quickstart.ipynb and its
// test: the notebook's DuckDB queries, run through duckdb-go against a real
// quickstart output (see notebook_test.go). It is a module of its own so
// that the main module does not depend on cgo or DuckDB.
package notebooks
