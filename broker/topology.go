package broker

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
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
	// Replicas of every stream and of the jobs object store when they are
	// created. Zero picks them: 1 on a single server, 3 on a NATS cluster
	// (a server that reports a cluster name). A cluster that cannot place
	// three replicas within ClusterFormWait (fewer than three JetStream
	// servers up) gets 1, with a note to Logf. Existing streams keep
	// theirs.
	Replicas int
	// InMemory keeps the cells and results streams in the server's memory
	// instead of its file store, when this call creates them (existing
	// streams keep their storage). It is for a broker whose store outlives
	// no run: the embedded broker of run and tune listens on no port and
	// empties its store before every run, whose journal alone is what a
	// rerun resumes from (cmd/schedfarm's startFarm). There the file store
	// only writes each message, publish and removal, to a file nothing
	// reads again: about a fifth of the farm's CPU per instant cell
	// (docs/performance-log.md, "The embedded broker's streams in memory").
	// A broker others connect to keeps the default, the file store, so
	// that a broker restarted alone loses no acknowledged cell or result.
	InMemory bool
	// Logf, when set, receives notes about the setup: waiting for a cluster
	// to form, settling for fewer replicas.
	Logf func(format string, args ...any)
}

// ClusterFormWait is how long creating a stream on a cluster keeps trying
// to place three replicas (the other servers may still be starting)
// before it settles for one.
var ClusterFormWait = 20 * time.Second

// apiWait bounds how long a JetStream API call of the setup is retried
// while the server answers that JetStream is not available yet (a cluster
// electing its meta leader, a restarting server).
const apiWait = time.Minute

func (t Topology) withDefaults() Topology {
	if t.AckWait <= 0 {
		t.AckWait = DefaultAckWait
	}
	if t.MaxDeliver <= 0 {
		t.MaxDeliver = DefaultMaxDeliver
	}
	if t.Logf == nil {
		t.Logf = func(string, ...any) {}
	}
	return t
}

// Clustered reports whether the server js is connected to is part of a
// NATS cluster.
func Clustered(js jetstream.JetStream) bool {
	return js.Conn().ConnectedClusterName() != ""
}

// apiCode is the JetStream error code of err, 0 when it has none.
func apiCode(err error) jetstream.ErrorCode {
	var ae *jetstream.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode
	}
	return 0
}

// Server error codes of nats-server that the setup handles.
const (
	errCodeClusterNoPeers        jetstream.ErrorCode = 10005 // no suitable peers for placement
	errCodeClusterNotAvail       jetstream.ErrorCode = 10008 // JetStream system temporarily unavailable
	errCodeInsufficientResources jetstream.ErrorCode = 10023
	errCodeReplicasNotSupported  jetstream.ErrorCode = 10074 // replicas > 1 in non-clustered mode
)

// placementFailed reports whether err says the servers cannot hold the
// replicas asked for.
func placementFailed(err error) bool {
	switch apiCode(err) {
	case errCodeClusterNoPeers, errCodeInsufficientResources, errCodeReplicasNotSupported:
		return true
	}
	return false
}

// transient reports whether err may go away by itself: no answer (yet),
// JetStream not available (yet), a connection being re-established.
func transient(err error) bool {
	switch apiCode(err) {
	case errCodeClusterNotAvail, jetstream.JSErrCodeJetStreamNotEnabled, jetstream.JSErrCodeJetStreamNotEnabledForAccount:
		return true
	}
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrNoStreamResponse) ||
		errors.Is(err, jetstream.ErrJetStreamNotEnabled) || errors.Is(err, nats.ErrConnectionReconnecting) ||
		errors.Is(err, nats.ErrDisconnected)
}

// retry calls op until it succeeds, fails with an error that is not
// transient, ctx ends or apiWait has passed. Each call gets a deadline that
// starts at half a second and doubles up to 5 s: a request sent before a
// cluster has its leaders goes unanswered, and waiting out the NATS default
// of 5 s for it would make every start of a cluster seconds slower. The
// operations retried are idempotent.
func retry(ctx context.Context, op func(ctx context.Context) error) error {
	deadline := time.Now().Add(apiWait)
	wait, callWait := 100*time.Millisecond, 500*time.Millisecond
	for {
		callCtx, cancel := context.WithTimeout(ctx, callWait)
		callWait = min(2*callWait, 5*time.Second)
		err := op(callCtx)
		cancel()
		if err == nil || !transient(err) || ctx.Err() != nil || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// create runs create (which makes one stream or bucket with the replicas
// given) with t's replica choice: t.Replicas when set; otherwise 3 on a
// cluster, waiting up to ClusterFormWait for the cluster to place them and
// then settling for 1, and 1 on a single server.
func (t Topology) create(ctx context.Context, js jetstream.JetStream, what string, create func(ctx context.Context, replicas int) error) error {
	replicas, auto := t.Replicas, t.Replicas <= 0
	if auto {
		replicas = 1
		if Clustered(js) {
			replicas = 3
		}
	}
	deadline := time.Now().Add(ClusterFormWait)
	waiting := false
	for {
		err := retry(ctx, func(ctx context.Context) error { return create(ctx, replicas) })
		if err == nil || !auto || replicas == 1 || !placementFailed(err) {
			if err != nil {
				return fmt.Errorf("create %s with %d replicas: %w", what, replicas, err)
			}
			return nil
		}
		if time.Now().After(deadline) {
			t.Logf("schedfarm: %s: the cluster could not place %d replicas within %v (%v); created with 1 replica, which a broker failure can lose",
				what, replicas, ClusterFormWait, err)
			replicas = 1
			continue
		}
		if !waiting {
			t.Logf("schedfarm: %s: waiting up to %v for the cluster to place %d replicas (%v)", what, ClusterFormWait, replicas, err)
			waiting = true
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("create %s: %w", what, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func (t Topology) streams() []jetstream.StreamConfig {
	queues := jetstream.FileStorage
	if t.InMemory {
		queues = jetstream.MemoryStorage
	}
	return []jetstream.StreamConfig{
		{
			Name:        CellsStream,
			Description: "schedfarm cells waiting for a worker",
			Subjects:    []string{cellsPrefix + ">"},
			Retention:   jetstream.WorkQueuePolicy,
			Storage:     queues,
			Duplicates:  DedupeWindow,
		},
		{
			Name:        ResultsStream,
			Description: "schedfarm cell results waiting for their coordinator",
			Subjects:    []string{resultsPrefix + ">"},
			Retention:   jetstream.WorkQueuePolicy,
			Storage:     queues,
			Duplicates:  DedupeWindow,
		},
		{
			Name:        AdvisoriesStream,
			Description: "max-deliveries advisories of the schedfarm workers consumer",
			Subjects:    []string{MaxDeliveriesAdvisorySubject},
			Retention:   jetstream.LimitsPolicy,
			Storage:     jetstream.FileStorage,
			MaxAge:      7 * 24 * time.Hour,
		},
	}
}

func (t Topology) jobsBucket() jetstream.ObjectStoreConfig {
	return jetstream.ObjectStoreConfig{
		Bucket:      JobsBucket,
		Description: "schedfarm per-job records of results too large for one message",
		// The coordinator deletes an object once its result is durable; the
		// TTL only reclaims objects of results nobody collected.
		TTL:     7 * 24 * time.Hour,
		Storage: jetstream.FileStorage,
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
	var os jetstream.ObjectStore
	err := retry(ctx, func(ctx context.Context) (err error) {
		os, err = js.ObjectStore(ctx, JobsBucket)
		return err
	})
	if err == nil {
		return os, nil
	}
	if !errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, fmt.Errorf("look up object store %s: %w", JobsBucket, err)
	}
	err = t.create(ctx, js, "object store "+JobsBucket, func(ctx context.Context, replicas int) (err error) {
		cfg := t.jobsBucket()
		cfg.Replicas = replicas
		os, err = js.CreateObjectStore(ctx, cfg)
		return err
	})
	if err != nil {
		if os2, err2 := js.ObjectStore(ctx, JobsBucket); err2 == nil {
			return os2, nil // created concurrently by someone else
		}
		return nil, err
	}
	return os, nil
}

// workersConsumer is the consumer every worker takes cells from. It has no
// filter subject: the cells stream holds cellsPrefix + ">" only, so
// unfiltered it delivers the same messages, and the server finds the next
// one from the stream's totals. With the filter cellsPrefix + ">" (before
// issue 25's change) the file store counted the pending messages subject
// by subject (fileStore.LoadNextMsg → numFilteredPending, a walk of its
// per-subject index) whenever the next message was the stream's first —
// every take of a worker that acks before it fetches again, since a work
// queue drops acked cells — and every cell has a subject of its own, so a
// take cost time in proportion to the cells waiting (BenchmarkFarmPrimitives,
// cell-take). Ensure drops the filter from a consumer made earlier.
func (t Topology) workersConsumer() jetstream.ConsumerConfig {
	return jetstream.ConsumerConfig{
		Durable:       WorkersConsumer,
		Description:   "schedfarm workers: one cell per fetch per slot",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       t.AckWait,
		MaxDeliver:    t.MaxDeliver,
		MaxAckPending: -1,
	}
}

// Ensure creates the farm's streams and the workers consumer, or updates
// them to t when they exist (the coordinator does this, so its AckWait and
// MaxDeliver settings win). An existing stream keeps its storage (file or
// memory, which cannot change) and its replicas unless t names a number; one
// that already holds t's settings is not updated (holdsSettings).
func Ensure(ctx context.Context, js jetstream.JetStream, t Topology) error {
	t = t.withDefaults()
	for _, cfg := range t.streams() {
		var info *jetstream.StreamInfo
		err := retry(ctx, func(ctx context.Context) error {
			st, err := js.Stream(ctx, cfg.Name)
			if err == nil {
				info = st.CachedInfo()
			}
			return err
		})
		switch {
		case err == nil:
			cfg.Storage = info.Config.Storage // a stream's storage cannot change
			cfg.Replicas = info.Config.Replicas
			if t.Replicas > 0 {
				cfg.Replicas = t.Replicas
			}
			if holdsSettings(info.Config, cfg) {
				continue // nothing to change; and see holdsSettings
			}
			if err := retry(ctx, func(ctx context.Context) error { _, err := js.UpdateStream(ctx, cfg); return err }); err != nil {
				return fmt.Errorf("update stream %s: %w", cfg.Name, err)
			}
		case errors.Is(err, jetstream.ErrStreamNotFound):
			if err := t.createStream(ctx, js, cfg); err != nil {
				return err
			}
		default:
			return fmt.Errorf("look up stream %s: %w", cfg.Name, err)
		}
	}
	err := retry(ctx, func(ctx context.Context) error {
		_, err := js.CreateOrUpdateConsumer(ctx, CellsStream, t.workersConsumer())
		return err
	})
	if err != nil {
		return fmt.Errorf("create or update consumer %s on %s: %w", WorkersConsumer, CellsStream, err)
	}
	return nil
}

// holdsSettings reports whether the configuration have of an existing
// stream already holds every setting of want: each field of want that is
// not zero is equal in have (a zero field cannot be told from one left
// unset, whose value is the server's default, so it is not compared).
//
// Ensure leaves such a stream alone rather than update it to itself. Such an
// update is not only a write of the stream's metadata for nothing: inside
// nats-server (v2.15.2, and v2.15.3 is the same) it races with a consumer
// created on the same stream at the same moment, since
// fileStore.ConsumerStore reads fs.cfg.Name without the store's lock
// (server/filestore.go:13552 in v2.15.2) while fileStore.UpdateConfig
// replaces fs.cfg under it (:757). A worker and a coordinator starting
// together on a fresh broker do just that (the worker's EnsureExists
// creating the workers consumer on the cells stream, the coordinator's
// Ensure updating that stream to the settings it already had), and the race
// detector failed CI's coordinator tests on it once, 7 Dec 2026
// (TestCoordinatorRestartResumes; by hand, one run in six of the package's
// tests under -race on a 2-core VM, in TestLongestFirstRestartResumes). An
// update that changes a setting can still meet that race; it is the
// server's, and harmless as the name it reads never changes.
func holdsSettings(have, want jetstream.StreamConfig) bool {
	h, w := reflect.ValueOf(have), reflect.ValueOf(want)
	for i := range w.NumField() {
		if !w.Type().Field(i).IsExported() || w.Field(i).IsZero() {
			continue
		}
		if !reflect.DeepEqual(w.Field(i).Interface(), h.Field(i).Interface()) {
			return false
		}
	}
	return true
}

// createStream creates a stream with t's replica choice; a stream created
// meanwhile by someone else is fine.
func (t Topology) createStream(ctx context.Context, js jetstream.JetStream, cfg jetstream.StreamConfig) error {
	err := t.create(ctx, js, "stream "+cfg.Name, func(ctx context.Context, replicas int) error {
		cfg.Replicas = replicas
		_, err := js.CreateStream(ctx, cfg)
		return err
	})
	if err != nil && errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		return nil
	}
	return err
}

// EnsureExists creates whatever part of the topology is missing with t's
// settings and leaves existing streams and consumers as they are (workers do
// this, so that they may start before any coordinator). It returns the
// workers consumer.
func EnsureExists(ctx context.Context, js jetstream.JetStream, t Topology) (jetstream.Consumer, error) {
	t = t.withDefaults()
	for _, cfg := range t.streams() {
		err := retry(ctx, func(ctx context.Context) error { _, err := js.Stream(ctx, cfg.Name); return err })
		if err == nil {
			continue
		} else if !errors.Is(err, jetstream.ErrStreamNotFound) {
			return nil, fmt.Errorf("look up stream %s: %w", cfg.Name, err)
		}
		if err := t.createStream(ctx, js, cfg); err != nil {
			return nil, err
		}
	}
	var c jetstream.Consumer
	err := retry(ctx, func(ctx context.Context) (err error) {
		c, err = js.Consumer(ctx, CellsStream, WorkersConsumer)
		return err
	})
	if err == nil {
		return c, nil
	}
	if !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return nil, fmt.Errorf("look up consumer %s on %s: %w", WorkersConsumer, CellsStream, err)
	}
	err = retry(ctx, func(ctx context.Context) (err error) {
		c, err = js.CreateConsumer(ctx, CellsStream, t.workersConsumer())
		return err
	})
	if err != nil {
		if c2, err2 := js.Consumer(ctx, CellsStream, WorkersConsumer); err2 == nil {
			return c2, nil // created concurrently by someone else
		}
		return nil, fmt.Errorf("create consumer %s on %s: %w", WorkersConsumer, CellsStream, err)
	}
	return c, nil
}
