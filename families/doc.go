// Package families lists the paper families schedfarm ships (List, one
// line per family) and builds from a list the family catalog (New,
// Builtin): a value holding what the rest of the program derives from the
// families — one scheduler registry (every family's entries), the workload
// models, the runners of families with a platform of their own, the
// families' workload fields. It is built once (cmd/schedfarm does, when it
// starts) and passed in; nothing looks the families up globally. Each
// family is one folder below this one; package family defines the
// contract.
//
//	classic/        P identical processors: FCFS, EASY, CONS, SJBF, depth-k
//	consolidation/  seed 000: two-tier VMs per processor; KEASY, REASY, MEASY
//	cloud/          seed 001: multi-attribute VMs; CPLMT, FIFO, Fair, ASJS, CMMS
//	stms/           seed 002: failing heterogeneous grid; STMS and variants, messy GA
//	twotier/        seed 004: typed resource pools, projects; 2TSB, 2TFB, 2TFB-SF, 2TPB
//	ktier/          seed 003: K VMs per node (1 foreground, K−1 background); modified CMBF
//
// The folders are named by concept (the platform or the paper's idea), not
// by seed number: a newcomer looking for "the cloud schedulers" or "the
// VM-tier schedulers" finds them by name, and the seed each one reproduces
// is the first line of its doc.go and of Doc().
package families
