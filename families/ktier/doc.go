// Package ktier is the K-tier VM family of seed 003 ("parallel job
// scheduling on K-tier virtual machines with a modified Conservative
// Migration supported BackFilling", shared/seeds/003_*): every node is
// divided into K VMs, one foreground VM with high CPU priority and K−1
// background VMs with low priority, generalising seed 000's two-tier
// platform (families/consolidation, sim.TwoTier).
//
// What it owns:
//
//	sharing.go  the K-tier sharing model (K = 2 is seed 000's exactly;
//	            background VMs share the foreground's idle CPU max-min fairly)
//	cmbf.go     modified CMBF (§3.3's Basic CMBF with suspension of later
//	            backfilled jobs, §3.2's VM selection, promotion to the
//	            foreground)
//	family.go   the family's registry entry: scheduler cmbf, parameters k
//	            and threshold; K chooses the platform, and the jobs get seed
//	            000's CPU usage (strategies.Entry.Prepare, consolidation.Tier)
//	suite.go    its workloads for the shared invariant suite (K = 1…4):
//	            a suspended job never loses progress, never two jobs in a VM
//
// The paper has no figures or tables; experiments/seed003-*.yaml design
// them from its claim (K-tier VMs and CMBF improve the utilisation of
// available resources) on seed 000's setup. The README section "K-tier VMs
// and modified CMBF (seed 003)" says what holds.
package ktier
