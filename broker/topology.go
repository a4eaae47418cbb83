package broker

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Names of the farm's streams and of the shared workers consumer.
const (
	CellsStream      = "SCHEDFARM_CELLS"
	ResultsStream    = "SCHEDFARM_RESULTS"
	AdvisoriesStream = "SCHEDFARM_ADVISORIES"
	WorkersConsumer  = "workers"
	// JobsBucket is the object store that carries per-job records too large
	// to travel inside a result message (see JobsObjectName).
	JobsBucket = "SCHEDFARM_JOBS"

	cellsPrefix   = "schedfarm.cells."
	resultsPrefix = "schedfarm.results."
)

// Defaults of the workers consumer.
const (
	// DefaultAckWait is how long a delivered cell may go without an ack or an
	// in-progress heartbeat before the server redelivers it.
	DefaultAckWait = 30 * time.Second
	// DefaultMaxDeliver is how many times a cell is delivered before it is
	// given up and recorded as failed.
	DefaultMaxDeliver = 4
	// DedupeWindow is the Nats-Msg-Id duplicate window of the cells and
	// results streams.
	DedupeWindow = time.Hour
)

// MaxDeliveriesAdvisorySubject is the subject on which the server announces
// that a cell exhausted its deliveries on the workers consumer.
var MaxDeliveriesAdvisorySubject = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + CellsStream + "." + WorkersConsumer

// MaxDeliveriesAdvisory is the part of the server's max-deliveries advisory
// that the coordinator needs.
type MaxDeliveriesAdvisory struct {
	Stream     string `json:"stream"`
	Consumer   string `json:"consumer"`
	StreamSeq  uint64 `json:"stream_seq"`
	Deliveries uint64 `json:"deliveries"`
}

// Token turns an experiment name or a cell id into one NATS subject token,
// injectively: ASCII letters, digits and '-' stay, every other byte
// (including '_') becomes '_' and two hex digits, so "a.b" and "a_b" get
// distinct tokens ("a_2Eb", "a_5Fb"). The empty string becomes "_".
func Token(s string) string {
	if s == "" {
		return "_"
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := range len(s) {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-':
			b.WriteByte(c)
		default:
			b.WriteByte('_')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// CellSubject is the subject a cell of an experiment is published on.
func CellSubject(experiment, cellID string) string {
	return cellsPrefix + Token(experiment) + "." + Token(cellID)
}

// ResultSubject is the subject a worker publishes a cell's result on.
func ResultSubject(experiment, cellID string) string {
	return resultsPrefix + Token(experiment) + "." + Token(cellID)
}

// ResultSubjectFor maps a cell message's subject to the subject of its
// result.
func ResultSubjectFor(cellSubject string) string {
	return resultsPrefix + strings.TrimPrefix(cellSubject, cellsPrefix)
}

// CellFilter is the subject filter matching every cell of an experiment.
func CellFilter(experiment string) string {
	return cellsPrefix + Token(experiment) + ".>"
}

// ResultFilter is the filter subject of an experiment's results consumer.
func ResultFilter(experiment string) string {
	return resultsPrefix + Token(experiment) + ".>"
}

// CoordinatorConsumer is the durable name of an experiment's coordinator
// consumers (one on the results stream, one on the advisories stream).
func CoordinatorConsumer(experiment string) string {
	return "coord-" + Token(experiment)
}

// Topology holds the tunable parts of the farm's JetStream objects.
type Topology struct {
	// AckWait of the workers consumer; DefaultAckWait when zero.
	AckWait time.Duration
	// MaxDeliver of the workers consumer; DefaultMaxDeliver when zero.
	MaxDeliver int
	// Replicas of every stream (1 for a single server); 1 when zero.
	Replicas int
}

func (t Topology) withDefaults() Topology {
	if t.AckWait <= 0 {
		t.AckWait = DefaultAckWait
	}
	if t.MaxDeliver <= 0 {
		t.MaxDeliver = DefaultMaxDeliver
	}
	if t.Replicas <= 0 {
		t.Replicas = 1
	}
	return t
}

func (t Topology) streams() []jetstream.StreamConfig {
	return []jetstream.StreamConfig{
		{
			Name:        CellsStream,
			Description: "schedfarm cells waiting for a worker",
			Subjects:    []string{cellsPrefix + ">"},
			Retention:   jetstream.WorkQueuePolicy,
			Storage:     jetstream.FileStorage,
			Duplicates:  DedupeWindow,
			Replicas:    t.Replicas,
		},
		{
			Name:        ResultsStream,
			Description: "schedfarm cell results waiting for their coordinator",
			Subjects:    []string{resultsPrefix + ">"},
			Retention:   jetstream.WorkQueuePolicy,
			Storage:     jetstream.FileStorage,
			Duplicates:  DedupeWindow,
			Replicas:    t.Replicas,
		},
		{
			Name:        AdvisoriesStream,
			Description: "max-deliveries advisories of the schedfarm workers consumer",
			Subjects:    []string{MaxDeliveriesAdvisorySubject},
			Retention:   jetstream.LimitsPolicy,
			Storage:     jetstream.FileStorage,
			MaxAge:      7 * 24 * time.Hour,
			Replicas:    t.Replicas,
		},
	}
}

func (t Topology) jobsBucket() jetstream.ObjectStoreConfig {
	return jetstream.ObjectStoreConfig{
		Bucket:      JobsBucket,
		Description: "schedfarm per-job records of results too large for one message",
		// The coordinator deletes an object once its result is durable; the
		// TTL only reclaims objects of results nobody collected.
		TTL:      7 * 24 * time.Hour,
		Storage:  jetstream.FileStorage,
		Replicas: t.Replicas,
	}
}

// JobsObjectName names the object holding the per-job records of one run of
// a cell: the cell message's stream sequence tells a rerun apart from the
// run whose result was already collected.
func JobsObjectName(experiment, cellID string, seq uint64) string {
	return Token(experiment) + "." + Token(cellID) + "." + strconv.FormatUint(seq, 10)
}

// JobsStore returns the per-job records object store, creating it with t's
// settings when it does not exist.
func JobsStore(ctx context.Context, js jetstream.JetStream, t Topology) (jetstream.ObjectStore, error) {
	t = t.withDefaults()
	os, err := js.ObjectStore(ctx, JobsBucket)
	if err == nil {
		return os, nil
	}
	if !errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, fmt.Errorf("look up object store %s: %w", JobsBucket, err)
	}
	os, err = js.CreateObjectStore(ctx, t.jobsBucket())
	if err != nil {
		if os2, err2 := js.ObjectStore(ctx, JobsBucket); err2 == nil {
			return os2, nil // created concurrently by someone else
		}
		return nil, fmt.Errorf("create object store %s: %w", JobsBucket, err)
	}
	return os, nil
}

func (t Topology) workersConsumer() jetstream.ConsumerConfig {
	return jetstream.ConsumerConfig{
		Durable:       WorkersConsumer,
		Description:   "schedfarm workers: one cell per fetch per slot",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       t.AckWait,
		MaxDeliver:    t.MaxDeliver,
		FilterSubject: cellsPrefix + ">",
		MaxAckPending: -1,
	}
}

// Ensure creates the farm's streams and the workers consumer, or updates
// them to t when they exist (the coordinator does this, so its AckWait and
// MaxDeliver settings win).
func Ensure(ctx context.Context, js jetstream.JetStream, t Topology) error {
	t = t.withDefaults()
	for _, cfg := range t.streams() {
		if _, err := js.CreateOrUpdateStream(ctx, cfg); err != nil {
			return fmt.Errorf("create or update stream %s: %w", cfg.Name, err)
		}
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, CellsStream, t.workersConsumer()); err != nil {
		return fmt.Errorf("create or update consumer %s on %s: %w", WorkersConsumer, CellsStream, err)
	}
	return nil
}

// EnsureExists creates whatever part of the topology is missing with t's
// settings and leaves existing streams and consumers as they are (workers do
// this, so that they may start before any coordinator). It returns the
// workers consumer.
func EnsureExists(ctx context.Context, js jetstream.JetStream, t Topology) (jetstream.Consumer, error) {
	t = t.withDefaults()
	for _, cfg := range t.streams() {
		if _, err := js.Stream(ctx, cfg.Name); err == nil {
			continue
		} else if !errors.Is(err, jetstream.ErrStreamNotFound) {
			return nil, fmt.Errorf("look up stream %s: %w", cfg.Name, err)
		}
		if _, err := js.CreateStream(ctx, cfg); err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			return nil, fmt.Errorf("create stream %s: %w", cfg.Name, err)
		}
	}
	c, err := js.Consumer(ctx, CellsStream, WorkersConsumer)
	if err == nil {
		return c, nil
	}
	if !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return nil, fmt.Errorf("look up consumer %s on %s: %w", WorkersConsumer, CellsStream, err)
	}
	c, err = js.CreateConsumer(ctx, CellsStream, t.workersConsumer())
	if err != nil {
		if c2, err2 := js.Consumer(ctx, CellsStream, WorkersConsumer); err2 == nil {
			return c2, nil // created concurrently by someone else
		}
		return nil, fmt.Errorf("create consumer %s on %s: %w", WorkersConsumer, CellsStream, err)
	}
	return c, nil
}
