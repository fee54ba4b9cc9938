"""The teacher's page in words (``railkit.ui.teacher.page``): the learners, the hardest exercises and the tables as
HTML tables, from the teacher endpoints' answers (``railkit.classroom.teacher``)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from railkit.lessons import LESSONS
from railkit.ui.i18n import get_language, tr
from railkit.ui.teacher.teacher_charts import GAME_NAMES, exercise_title

__all__ = ["PLAY_LESSONS", "exercises_html", "learners_html", "tables_html"]

PLAY_LESSONS = {"union_pacific": "up_play", "cape_to_cairo": "kk_play"}  # where a table is watched or replayed


def _percent(right: int, tries: int) -> str:
    return f"{round(100 * right / tries)} %" if tries else "—"


def _minutes(seconds: int) -> str:
    return tr("{m} min", m=seconds // 60) if seconds >= 60 else tr("{s} s", s=seconds)


def _holder_words(seat: dict[str, Any]) -> str:
    """Who holds a seat, for the teacher: a learner (here or away), a computer player (also one sitting in for a
    learner), or nobody yet."""
    holder = seat.get("holder")
    if holder == "human":
        return tr("learner, away") if seat.get("away") else tr("learner")
    if holder == "bot":
        return tr("computer, for its learner") if seat.get("stand_in") else tr("computer")
    return tr("open") if holder == "open" else str(holder)


def learners_html(rows: Sequence[Mapping[str, Any]]) -> str:
    """Every learner in the order given: lessons started and finished, answers, right at the first try, the rules
    most often wrong, the tables they sit at."""
    if not rows:
        return f"<p class='railkit-muted'>{html.escape(tr('No answers recorded yet.'))}</p>"
    titles = {x.id: tr(x.link) for x in LESSONS}
    head = "".join(f"<th class='name'>{html.escape(h)}</th>" for h in (
        tr("learner"), tr("lessons started"), tr("lessons finished"), tr("answers"),
        tr("right at the first try"), tr("most often wrong"), tr("at the tables")))
    body = ""
    for r in rows:
        wrong = ", ".join(f"{rule} ×{n}" for rule, n in r["wrong_rules"]) or "—"
        body += ("<tr>" + "".join(f"<td class='name'>{html.escape(str(v))}</td>" for v in (
            r["learner"], ", ".join(titles.get(x, x) for x in r["started"]) or "—",
            ", ".join(titles.get(x, x) for x in r["finished"]) or "—", r["answers"],
            f"{r['first_try_right']}/{r['first_tries']} ({_percent(r['first_try_right'], r['first_tries'])})",
            wrong, ", ".join(r.get("tables", [])) or "—")) + "</tr>")
    return f"<table class='railkit-table'><tr>{head}</tr>{body}</table>"

def exercises_html(rows: Sequence[Mapping[str, Any]]) -> str:
    """The exercises, hardest first: lesson, exercise, learners, right at the first try, rules."""
    if not rows:
        return f"<p class='railkit-muted'>{html.escape(tr('No answers recorded yet.'))}</p>"
    titles = {x.id: tr(x.link) for x in LESSONS}
    head = "".join(f"<th class='name'>{html.escape(h)}</th>" for h in (
        tr("lesson"), tr("exercise"), tr("learners"), tr("right at the first try"), tr("rules")))
    body = "".join(
        "<tr>" + "".join(f"<td class='name'>{html.escape(str(v))}</td>" for v in (
            titles.get(r["lesson"], r["lesson"]), exercise_title(r["lesson"], r["exercise"]), r["learners"],
            f"{r['first_try_right']}/{r['first_tries']} ({_percent(r['first_try_right'], r['first_tries'])})",
            ", ".join(r["rules"]) or "—")) + "</tr>"
        for r in rows)
    return f"<table class='railkit-table'><tr>{head}</tr>{body}</table>"

def tables_html(rows: Sequence[Mapping[str, Any]]) -> str:
    """Every table: game, seats and who holds them, whose turn, waiting, moves, state, and its Watch (Replay) link in
    its play lesson."""
    if not rows:
        return f"<p class='railkit-muted'>{html.escape(tr('No tables yet.'))}</p>"

    head = "".join(f"<th class='name'>{html.escape(h)}</th>" for h in (
        tr("table"), tr("game"), tr("seats"), tr("whose turn"), tr("waiting"), tr("moves"), tr("state"), tr("watch or replay")))
    body = ""
    for t in rows:
        lesson = PLAY_LESSONS.get(str(t["game"]))
        watch = "" if lesson is None else (
            f"<a class='railkit-teacher-watch' target='_blank' href='../{lesson}.ipynb?"
            f"{html.escape(urlencode({'watch': t['table'], 'lang': get_language()}), True)}'>"
            f"{html.escape(tr('Replay') if t['is_over'] else tr('Watch'))}</a>")
        seats = ", ".join(f"{s['seat']} ({_holder_words(s)})" for s in t["seats"])
        state = tr("finished") if t["is_over"] else tr("stalled") if t["stalled"] else tr("playing")
        css = " class='railkit-wrong'" if t["stalled"] else ""
        body += (f"<tr{css}>" + "".join(f"<td class='name'>{html.escape(str(v))}</td>" for v in (
            t["table"], GAME_NAMES.get(str(t["game"]), t["game"]), seats, ", ".join(t["to_move"]) or "—",
            "—" if t["is_over"] else _minutes(int(t["waiting_seconds"])), t["moves"], state))
                 + f"<td class='name'>{watch}</td></tr>")
    return f"<table class='railkit-table'><tr>{head}</tr>{body}</table>"
