"""Write a synthetic log of a given size: real message shapes (the records' signature examples and
the development set's pastes) mixed into filler lines of training output."""
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


def make(path: Path, size: int, seed: int = 0) -> int:
    rng = random.Random(seed)
    shapes = [s["example"] for r in load_records() for s in r.data["signatures"]]
    shapes += [line for c in devset_cases() for line in c.text.splitlines() if line.strip()]
    written, lines = 0, 0
    with open(path, "w", encoding="utf-8") as out:
        buf = []
        while written < size:
            if rng.random() < 0.001:
                line = rng.choice(shapes)
            else:
                line = rng.choice(FILLER).format(m=rng.randrange(60), s=rng.randrange(60), ms=rng.randrange(1000),
                                                 step=rng.randrange(10**6), loss=rng.random() * 4, g=rng.random(),
                                                 tps=rng.randrange(10**5), r=rng.randrange(512), r2=rng.randrange(512),
                                                 cs=rng.randrange(10**8), host=f"node-{rng.randrange(64)}",
                                                 pid=rng.randrange(10**5), pid2=rng.randrange(10**5), c=rng.randrange(32))
            buf.append(line)
            written += len(line.encode("utf-8")) + 1
            lines += 1
            if len(buf) >= 10000:
                out.write("\n".join(buf) + "\n")
                buf = []
        if buf:
            out.write("\n".join(buf) + "\n")
    return lines


if __name__ == "__main__":
    print(make(Path(sys.argv[1]), int(float(sys.argv[2]))))
