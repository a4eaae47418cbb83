// Package yamlnode reads and edits YAML mapping nodes in place (keeping
// their order and line numbers): the tune spec builds its trial
// experiments this way and `schedfarm reproduce` rewrites figure specs.
package yamlnode
