package twotier

import (
	"fmt"
	"slices"
)

// The readings of the thesis that the family names (doc.go, Readings): each
// is a type here, its values the scheduler parameter's words.

// VictimRule says which reservation shiftReservations delays for a
// conflict (§4.3).
type VictimRule int

const (
	// VictimNext (default): "if there is more than one possible
	// reservation which could be delayed by the operation shiftReservations,
	// the reservation with the largest latest starting time is chosen"
	// (§4.3): among the reservations that could be delayed — moved to a
	// start within their latest starting time, within the preemption limit
	// — the one with the largest latest starting time. When that one
	// cannot move, the next is tried.
	VictimNext VictimRule = iota
	// VictimFirst is the behaviour before issue 21, kept to measure the
	// fix: only the largest-lts reservation with slack is tried, and the
	// shift fails if it cannot move.
	VictimFirst
)

// PLCount says what counts against the preemption limit PL (§3.1, §4.1,
// §4.4, Table 5).
type PLCount int

const (
	// PLPerCall (default): per shiftReservations call, the projects whose
	// departure it makes later (Table 5: "given that the number of delayed
	// projects ≤ PL"; §4.1: "limit the number of projects whose departure
	// time will be re-arranged").
	PLPerCall PLCount = iota
	// PLAnyJob: per call, the projects any of whose reservations it delays,
	// whether or not their departure moves (§4.4: "new projects can delay
	// any existing reservations up to the maximum number of allowable
	// times").
	PLAnyJob
	// PLLifetime: per project over its life, how many shiftReservations
	// calls have made its departure later (§3.1: "the departure time of a
	// waiting project may be delayed by new incoming projects several times
	// before the project actually departs", within "the maximum number of
	// allowable times").
	PLLifetime
)

// OwnLTS is the latest starting time of an arriving project's own jobs
// while the project is still being planned (Figure 4 sets the latest
// starting times only after all its jobs are placed, lines 19–22).
type OwnLTS int

const (
	// OwnPinned (default): a placed job's latest starting time is its
	// planned start until the project is planned, so a project never delays
	// its own jobs.
	OwnPinned OwnLTS = iota
	// OwnInfinite: the project's later jobs may delay its earlier ones
	// without bound while it is planned.
	OwnInfinite
	// OwnProvisional: eq. 7 with the departure and turn-around time planned
	// so far, recomputed after each job is placed.
	OwnProvisional
)

// LTSTurnaround is the turn-around time eq. 7 multiplies by SF.
type LTSTurnaround int

const (
	// TurnaroundProject (default): the project's tn_u, as eq. 7 and §4.1
	// write it ("the slack of each project p_u by multiplying its
	// turn-around time tn_u with ... SF").
	TurnaroundProject LTSTurnaround = iota
	// TurnaroundJob: the job's own tn_{u,v} = tf_{u,v} − ta_u, as Figure 4
	// line 20 and Figure 5 line 9 write it.
	TurnaroundJob
)

// The parameter words of each reading, in the order of its constants.
var (
	victimNames     = []string{"next", "first"}
	plCountNames    = []string{"call", "job", "lifetime"}
	ownLTSNames     = []string{"pinned", "infinite", "provisional"}
	turnaroundNames = []string{"project", "job"}
)

func (v VictimRule) String() string    { return word(victimNames, int(v)) }
func (c PLCount) String() string       { return word(plCountNames, int(c)) }
func (o OwnLTS) String() string        { return word(ownLTSNames, int(o)) }
func (t LTSTurnaround) String() string { return word(turnaroundNames, int(t)) }

func word(names []string, i int) string {
	if i < 0 || i >= len(names) {
		return fmt.Sprintf("reading(%d)", i)
	}
	return names[i]
}

// parseWord returns the index of s in names, or an error naming the
// parameter and what it accepts.
func parseWord(param string, names []string, s string) (int, error) {
	if i := slices.Index(names, s); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("%s %q; accepted: %v", param, s, names)
}

// ShiftRules are the readings shiftReservations follows.
type ShiftRules struct {
	Victim VictimRule
	Count  PLCount
}
