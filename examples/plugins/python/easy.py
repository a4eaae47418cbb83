#!/usr/bin/python3
"""A schedfarm scheduler plugin in Python: EASY backfilling, or FCFS.

    schedfarm sim --trace KTH-SP2-1996-2.swf.gz --plugin examples/plugins/python/easy.py --param policy=fcfs

It needs Debian's python3-grpcio and python3-protobuf (no PyPI), which
install for /usr/bin/python3, hence the first line. scheduler_pb2.py next to
it is generated from strategies/plugin/schedulerpb/scheduler.proto (the
protocol, documented there) by scripts/gen-plugin-proto; the gRPC service is
wired with grpc's generic handlers, so no grpc_tools stubs are needed.

It speaks HashiCorp go-plugin's handshake by hand: check the magic cookie,
serve gRPC on a Unix socket, print "1|1|unix|PATH|grpc" on stdout, serve the
health service go-plugin expects, and exit on GRPCController.Shutdown.
"""

import os
import sys
import tempfile
import threading
from concurrent import futures

import grpc

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import scheduler_pb2 as pb  # noqa: E402

PROTOCOL_VERSION = 1
COOKIE_KEY, COOKIE_VALUE = "SCHEDFARM_PLUGIN", "schedfarm-scheduler-8c4f"
MIN_DUR = 1e-6  # a zero estimate holds its processors this long in the plan


def description():
    d = pb.Description(
        name="py-easy",
        summary="EASY backfilling or FCFS (example plugin in Python)",
        # Both decide from the current state only: passes at which nothing
        # fits need not be sent.
        pass_mode=pb.PASS_MODE_WHEN_STARTABLE,
    )
    p = d.params.add(name="policy", kind=pb.ParamSpec.KIND_STRING, choices=["easy", "fcfs"],
                     doc="easy: the queue head gets a reservation, later jobs backfill; fcfs: strictly in order")
    p.default.string = "easy"
    return d


class Job:
    __slots__ = ("id", "wid", "submit", "estimate", "demand", "start", "running", "dur")

    def __init__(self, m):
        self.id, self.wid, self.submit, self.estimate = m.id, m.workload_id, m.submit, m.estimate
        self.demand = list(m.demand)
        self.start, self.running = 0.0, False
        self.dur = max(self.estimate, MIN_DUR)


class Run:
    """The plugin's view of one simulation, kept from the changes of each pass."""

    def __init__(self, start):
        self.free = [p.capacity for p in start.platform.pools]
        self.policy = start.params["policy"].string if "policy" in start.params else "easy"
        self.jobs = {}      # id -> Job, waiting or running
        self.queue = []     # waiting, in arrival order
        self.running = []   # in start order
        self.now = 0.0

    def apply(self, p):
        self.now = p.now
        for e in p.ended:
            j = self.jobs.pop(e.id, None)
            if j is None or not j.running:
                raise RuntimeError("out of sync at t=%g: job %d ended but is not running here" % (p.now, e.id))
            self.free = [f + d for f, d in zip(self.free, j.demand)]
            self.running.remove(j)
        for m in p.arrived:
            j = Job(m)
            self.jobs[j.id] = j
            self.queue.append(j)
        if self.free != list(p.free) or len(self.running) != p.running or len(self.queue) != p.waiting:
            raise RuntimeError("out of sync at t=%g: here %s free, %d running, %d waiting; schedfarm says %s, %d, %d" % (
                p.now, self.free, len(self.running), len(self.queue), list(p.free), p.running, p.waiting))

    def fits(self, j, avail=None):
        avail = self.free if avail is None else avail
        return all(d <= a for d, a in zip(j.demand, avail))

    def start(self, j, dec):
        self.free = [f - d for f, d in zip(self.free, j.demand)]
        j.start, j.running = self.now, True
        self.running.append(j)
        dec.start.add(id=j.id)

    def schedule(self):
        dec = pb.Decisions()
        q = self.queue
        i = 0
        while i < len(q) and self.fits(q[i]):
            self.start(q[i], dec)
            i += 1
        rest = q[i:]
        if rest and self.policy == "easy":
            head = rest[0]
            shadow, extra = self.shadow(head)
            dec.reservations.items.add(id=head.id, start=shadow)
            dec.wake_at = shadow
            for j in rest[1:]:
                if not self.fits(j):
                    continue
                ends_before = self.now + j.dur <= shadow
                if not ends_before and not self.fits(j, extra):
                    continue
                self.start(j, dec)
                if not ends_before:
                    extra = [x - d for x, d in zip(extra, j.demand)]
        self.queue = [j for j in rest if not j.running]
        return dec

    def shadow(self, head):
        """When the head can start if running jobs end at their estimates, and the units spare beside it then."""
        avail = list(self.free)
        ends = sorted(self.running, key=lambda j: max(j.start + j.dur, self.now))  # stable: start order on ties
        k = 0
        while k < len(ends):
            t = max(ends[k].start + ends[k].dur, self.now)
            while k < len(ends) and max(ends[k].start + ends[k].dur, self.now) == t:
                avail = [a + d for a, d in zip(avail, ends[k].demand)]
                k += 1
            if self.fits(head, avail):
                return t, [a - d for a, d in zip(avail, head.demand)]
        raise RuntimeError("job %d never fits the machine" % head.id)


def describe_rpc(request, context):
    return description()


def run_rpc(requests, context):
    first = next(requests)
    if first.WhichOneof("msg") != "start":
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the run must begin with start")
    run = Run(first.start)
    yield pb.PluginMessage(ready=pb.Ready())
    for msg in requests:
        p = getattr(msg, "pass")  # "pass" is a Python keyword
        try:
            run.apply(p)
            dec = run.schedule()
        except RuntimeError as e:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(e))
        yield pb.PluginMessage(decisions=dec)


def main():
    if os.environ.get(COOKIE_KEY) != COOKIE_VALUE:
        sys.stderr.write("This is a schedfarm scheduler plugin: schedfarm starts it "
                         "(schedfarm sim --plugin %s).\n" % sys.argv[0])
        sys.exit(1)
    stop = threading.Event()
    raw = dict(request_deserializer=lambda b: b, response_serializer=lambda b: b)
    handlers = [
        grpc.method_handlers_generic_handler("schedfarm.scheduler.v1.Scheduler", {
            "Describe": grpc.unary_unary_rpc_method_handler(
                describe_rpc, request_deserializer=pb.DescribeRequest.FromString,
                response_serializer=pb.Description.SerializeToString),
            "Run": grpc.stream_stream_rpc_method_handler(
                run_rpc, request_deserializer=pb.HostMessage.FromString,
                response_serializer=pb.PluginMessage.SerializeToString),
        }),
        # go-plugin's health check: HealthCheckResponse{status: SERVING}.
        grpc.method_handlers_generic_handler("grpc.health.v1.Health", {
            "Check": grpc.unary_unary_rpc_method_handler(lambda req, ctx: b"\x08\x01", **raw),
        }),
        grpc.method_handlers_generic_handler("plugin.GRPCController", {
            "Shutdown": grpc.unary_unary_rpc_method_handler(lambda req, ctx: (stop.set(), b"")[1], **raw),
        }),
    ]
    sock_dir = os.environ.get("PLUGIN_UNIX_SOCKET_DIR") or tempfile.mkdtemp(prefix="py-easy-")
    path = os.path.join(sock_dir, "py-easy-%d.sock" % os.getpid())
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), handlers=handlers)
    server.add_insecure_port("unix:" + path)
    server.start()
    print("1|%d|unix|%s|grpc" % (PROTOCOL_VERSION, path), flush=True)
    stop.wait()
    server.stop(0)


if __name__ == "__main__":
    main()
