"""The wire's state deltas are one pair: what ``state_delta`` leaves out of a state, ``merge_state`` puts back."""

from __future__ import annotations

import random

from railkit.wire import NARRATIVE_KEPT, merge_state, state_delta


def test_merge_state_undoes_state_delta_over_a_random_game() -> None:
    rng = random.Random(34)
    log: list[int] = []
    narrative: list[str] = []
    previous = None
    log_sent = narrative_sent = 0
    legal_sent: list[int] = []
    for step in range(300):
        log.extend(range(len(log), len(log) + rng.randint(0, 3)))
        narrative.extend(f"s{step}.{i}" for i in range(rng.randint(0, 30)))
        legal = [rng.randint(0, 2)] if rng.random() < 0.7 else []
        log_from = rng.randint(0, log_sent)  # a reveal sends again from an earlier move
        if previous is None or rng.random() < 0.05:  # a new connection, or the table was rebuilt: everything
            previous, log_from, narrative_sent, legal_sent = None, 0, 0, []
        delta = state_delta(log_from, log[log_from:], narrative, narrative_sent, legal, legal == legal_sent)
        assert len(delta["narrative"]) <= NARRATIVE_KEPT
        state = merge_state(previous, {"type": "state", **delta})
        assert state["log"] == log
        assert state["narrative"] == narrative[-NARRATIVE_KEPT:]
        assert state["legal"] == legal
        previous, log_sent, narrative_sent, legal_sent = state, len(log), len(narrative), legal
