"""Pool fairness: ``.venv/bin/python bench/tools/pool_fairness.py``.

500 closed-loop tasks share 40 connections, as the move path does at 500 matches on
PostgreSQL (pool 20 + 20): the bare asyncio.Queue that SQLAlchemy's AsyncAdaptedQueue
wraps, then the same queue behind a FIFO asyncio.Semaphore of the pool's size. A waiter
woken by a returned connection can lose it to a task that arrives meanwhile and then
queues again at the back (asyncio.Queue.get), so the bare queue's waits spread out; the
gate serves waiters in order. No database: holds are 4 sleeps (BEGIN, UPDATE, INSERT,
COMMIT), each one event-loop turn or more.
"""

import asyncio
import time

TASKS, CONNS, ROUNDS = 500, 40, 20


async def main(gate: bool) -> None:
    q: asyncio.Queue[int] = asyncio.Queue()
    for i in range(CONNS):
        q.put_nowait(i)
    sem = asyncio.Semaphore(CONNS)
    waits: list[float] = []

    async def player() -> None:
        for _ in range(ROUNDS):
            await asyncio.sleep(0)  # the socket read / parse / engine
            t = time.perf_counter()
            if gate:
                await sem.acquire()
            conn = await q.get()
            waits.append(time.perf_counter() - t)
            for _ in range(4):  # BEGIN, UPDATE, INSERT, COMMIT
                await asyncio.sleep(0.0005)
            q.put_nowait(conn)
            if gate:
                sem.release()
            await asyncio.sleep(0)  # publish, fan-out

    t0 = time.perf_counter()
    await asyncio.gather(*(player() for _ in range(TASKS)))
    w = sorted(waits)
    n = len(w)
    rate = n / (time.perf_counter() - t0)
    name = "FIFO semaphore gate" if gate else "bare asyncio.Queue "

    def ms(x: float) -> str:
        return f"{x * 1000:6.1f}"

    print(
        f"{name}: {rate:6.0f} checkouts/s  wait p50 {ms(w[n // 2])}  p90 {ms(w[int(0.9 * n)])}  "
        f"p99 {ms(w[int(0.99 * n)])}  max {ms(w[-1])} ms  max/p50 {w[-1] / w[n // 2]:.1f}"
    )


asyncio.run(main(False))
asyncio.run(main(True))
