"""Where a py-spy profile of our server spends its CPU, by area and by function.

``.venv/bin/python bench/tools/pyspy_areas.py PROFILE.raw [CPU_MS_PER_MOVE]`` reads
``py-spy record --format raw`` output (collapsed stacks, as ``bench/peer.py --py-spy``
writes) and prints self and cumulative shares by library area, the top functions, and
the move path's parts (in ms per move when the server's CPU per move is given). Stacks
run inside SQLAlchemy's greenlets appear without their root: they count under the
database area, not under the move path that started them.
"""

import re
import sys
from collections import Counter

AREAS = [
    ("pydantic (validate/serialize)", r"\(pydantic"),
    ("SQLAlchemy", r"\(sqlalchemy/"),
    ("asyncpg (driver, Cython protocol)", r"\(asyncpg/"),
    ("redis client", r"\(redis/"),
    (
        "websocket send/recv (uvicorn ws + websockets)",
        r"\(websockets/|\(uvicorn/protocols/websockets",
    ),
    ("uvicorn http", r"\(uvicorn/"),
    ("starlette/fastapi/anyio", r"\((starlette|fastapi|anyio)/"),
    ("engines (rules)", r"\(engines/"),
    ("app code", r"\(app/"),
    ("json (stdlib)", r"\(json/"),
    ("asyncio event loop + streams", r"\(asyncio/|\(selectors"),
    ("greenlet", r"greenlet"),
    ("no Python frame (native: GC, C ext.)", r"^$"),
]


def area(frame):
    for name, pat in AREAS:
        if re.search(pat, frame):
            return name
    return "other"


selfc, cum, area_self, area_cum = Counter(), Counter(), Counter(), Counter()
total = 0
for line in open(sys.argv[1]):
    line = line.rstrip()
    if not line:
        continue
    stack, n = line.rsplit(" ", 1)
    n = int(n)
    frames = stack.split(";")
    # drop the leading process/thread frame(s) py-spy adds
    frames = [f for f in frames if "(" in f] or [""]
    total += n
    leaf = frames[-1]
    selfc[leaf] += n
    area_self[area(leaf)] += n
    for f in set(frames):
        cum[f] += n
    for a in set(area(f) for f in frames):
        area_cum[a] += n
print("total samples", total)
print("\n== areas: self share / cumulative share ==")
for a, n in area_self.most_common():
    print(f"{a:<32} self {100 * n / total:5.1f}%  cum {100 * area_cum[a] / total:5.1f}%")
print("\n== top 25 functions by self ==")
for f, n in selfc.most_common(25):
    print(f"{100 * n / total:5.1f}%  cum {100 * cum[f] / total:5.1f}%  {f[:150]}")
print("\n== top 40 functions by cumulative ==")
for f, n in cum.most_common(40):
    print(f"{100 * n / total:5.1f}%  self {100 * selfc[f] / total:5.1f}%  {f[:150]}")

GROUPS = [
    ("database: SQLAlchemy + asyncpg + greenlet", r"\((sqlalchemy|asyncpg)/|greenlet"),
    ("move path MovePath.play (incl. its DB work outside greenlets)", r"^MovePath\.play "),
    ("  engine apply/view (engines/)", r"\(engines/"),
    ("  MovePath.commit", r"^MovePath\.commit "),
    ("  Store.advance (transaction)", r"^Store\.advance "),
    ("  hub publish (RedisHub.publish)", r"^RedisHub\.publish "),
    ("  hub_views (views for the hub)", r"^hub_views "),
    ("socket writes Connection.send_text", r"^Connection\.send_text "),
    ("hub listener RedisHub._listen (pydantic parse + deliver)", r"^RedisHub\._listen "),
    ("forward to sockets Connection.forward", r"^Connection\.forward "),
    ("frame encode HubMove.of", r"HubMove.of"),
    ("socket reads Connection.read (incl. the move path)", r"^Connection\.read "),
    ("pydantic anywhere", r"\(pydantic"),
    ("redis anywhere", r"\(redis/"),
    ("json anywhere", r"\(json/|json\.loads|json\.dumps"),
    ("presence / limits", r"\(app/(presence|limits)\.py"),
]
per_move = float(sys.argv[2]) if len(sys.argv) > 2 else None
print("\n== groups (cumulative share; ms per move if the CPU per move is given) ==")
for name, pat in GROUPS:
    rx = re.compile(pat)
    n = 0
    for line in open(sys.argv[1]):
        line = line.rstrip()
        if not line:
            continue
        stack, c = line.rsplit(" ", 1)
        if any(rx.search(f) for f in stack.split(";")):
            n += int(c)
    share = n / total
    extra = f"  ~{share * per_move:.2f} ms/move" if per_move else ""
    print(f"{name:<62} {100 * share:5.1f}%{extra}")
