"""Write a synthetic log of a given size, in one of three shapes:
- `train`: training-output filler with 0.1% of lines drawn from real message shapes (the records'
  signature examples and the development set's pastes);
- `dmesg`: kernel-log lines with an Xid line every 20 lines;
- `nccl`: an NCCL_DEBUG=INFO log (channel, ring and transport lines) with rare WARN lines;
or `oneline`: the training filler with its line ends removed (one line of the whole size)."""
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from relref.match.evaluation import devset_cases  # noqa: E402
from relref.records.load import load_records  # noqa: E402

FILLER = [
    "[2026-11-29 10:{m:02d}:{s:02d},{ms:03d}] INFO train.py:212 step {step} loss {loss:.4f} lr 3.0e-04 grad_norm {g:.3f} tokens/s {tps}",
    "[rank{r}]: iteration {step}/ 115311 | consumed samples: {cs} | elapsed time per iteration (ms): {ms}.{s} | learning rate: 6.000E-05",
    "{host}:{pid}:{pid2} [{r}] NCCL INFO Channel {c:02d}/0 : {r} -> {r2} via P2P/IPC",
    "I1129 10:{m:02d}:{s:02d}.{ms:03d}123 {pid} dataloader.cc:88] prefetched batch {step} in {ms} us",
]


XID = "[{up:>12.6f}] NVRM: Xid (PCI:0000:{b:02x}:00): {xid}, pid={pid}, name=python3, Ch 0000000{c}"
DMESG = [
    "[{up:>12.6f}] nvme nvme0: I/O {pid} QID {n} timeout, completion polled",
    "[{up:>12.6f}] mlx5_core 0000:{b:02x}:00.0: mlx5e_set_link_ksettings: speed 400000 ok",
    "[{up:>12.6f}] EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Quota mode: none.",
    "[{up:>12.6f}] IPv6: ADDRCONF(NETDEV_CHANGE): eth{n}: link becomes ready",
    "[{up:>12.6f}] audit: type=1400 audit({up:.3f}:{pid}): apparmor=\"STATUS\" operation=\"profile_load\" pid={pid}",
]
NCCL = [
    "{host}:{pid}:{pid2} [{r}] NCCL INFO Channel {c:02d}/0 : {r} -> {r2} via P2P/IPC",
    "{host}:{pid}:{pid2} [{r}] NCCL INFO Ring {c:02d} : {r} -> {r2} -> {r3}",
    "{host}:{pid}:{pid2} [{r}] NCCL INFO NET/IB : Using [{c}]mlx5_{n}:1/IB ; OOB ib{n}:10.0.{r}.{n}<0>",
    "{host}:{pid}:{pid2} [{r}] NCCL INFO Connected all rings comm 0x{pid:x} nRanks {r2} nNodes 8",
    "{host}:{pid}:{pid2} [{r}] NCCL INFO comm 0x{pid:x} rank {r} nranks 512 cudaDev {n} busId {b:x}000 - Init COMPLETE",
]


def _line(rng, shape, shapes, i):
    v = dict(m=rng.randrange(60), s=rng.randrange(60), ms=rng.randrange(1000), step=rng.randrange(10**6),
             loss=rng.random() * 4, g=rng.random(), tps=rng.randrange(10**5), r=rng.randrange(512),
             r2=rng.randrange(512), r3=rng.randrange(512), cs=rng.randrange(10**8), host=f"node-{rng.randrange(64)}",
             pid=rng.randrange(10**5), pid2=rng.randrange(10**5), c=rng.randrange(32), n=rng.randrange(8),
             b=rng.randrange(256), l=rng.randrange(64), up=i * 0.01, xid=rng.choice([13, 31, 43, 48, 63, 79, 94, 119]))
    if shape == "dmesg":
        return XID.format(**v) if i % 20 == 0 else rng.choice(DMESG).format(**v)
    if shape == "nccl":
        if rng.random() < 0.0005:
            return "{host}:{pid}:{pid2} [{r}] NCCL WARN NET/IB : Got completion from peer 10.0.0.{n}<{pid}> with status=12 opcode=129 len=0 vendor err 129 (Recv)".format(**v)
        return rng.choice(NCCL).format(**v)
    if rng.random() < 0.001:
        return rng.choice(shapes)
    return rng.choice(FILLER).format(**v)


def make(path: Path, size: int, seed: int = 0, shape: str = "train") -> int:
    rng = random.Random(seed)
    shapes = [s["example"] for r in load_records() for s in r.data["signatures"]]
    shapes += [line for c in devset_cases() for line in c.text.splitlines() if line.strip()]
    written, lines = 0, 0
    end = " " if shape == "oneline" else "\n"
    with open(path, "w", encoding="utf-8") as out:
        buf = []
        while written < size:
            line = _line(rng, "train" if shape == "oneline" else shape, shapes, lines).replace("\n", " ")
            buf.append(line)
            written += len(line.encode("utf-8")) + 1
            lines += 1
            if len(buf) >= 10000:
                out.write(end.join(buf) + end)
                buf = []
        if buf:
            out.write(end.join(buf) + end)
    return lines


if __name__ == "__main__":
    print(make(Path(sys.argv[1]), int(float(sys.argv[2])), shape=sys.argv[3] if len(sys.argv) > 3 else "train"))
