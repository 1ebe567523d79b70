"""Stage 1 and fusion over arrays: each array helper gives what the one-at-a-time code it replaced gives,
bit for bit (a search's scores and regions must not move)."""

from __future__ import annotations

import numpy as np
import pytest

from semantic_json import compile
from semantic_json.compilation.entities import names_parent_of
from semantic_json.index import SCORE_DECIMALS
from semantic_json.search.candidates import best_cosines, best_first, united
from semantic_json.search.fusion import entity_filter, rounded_scores
from semantic_json.search.statements import in_statements
from semantic_json.store.engine_rows import ONE_WEIGHT, WEIGHT_EACH, document_entries, posting_entries
from semantic_json.store.records import UnitLayout


def _rows(rng: np.random.Generator, n_units: int, count: int) -> list[bytes]:
    dtype = np.uint16 if n_units <= 65536 else np.uint32
    rows = []
    for n in range(count):
        units = np.sort(rng.choice(n_units, int(rng.integers(1, 12)), replace=False)).astype(dtype)
        if n % 2:
            rows.append(ONE_WEIGHT + np.float32(rng.random()).tobytes() + units.tobytes())
        else:
            rows.append(WEIGHT_EACH + units.tobytes() + rng.random(len(units)).astype(np.float32).tobytes())
    return rows


@pytest.mark.parametrize("n_units", [300, 70000])
def test_a_documents_rows_decode_at_once_to_each_rows_entries_in_row_order(n_units):
    rows = _rows(np.random.default_rng(n_units), n_units, 9)
    units, weights, counts = document_entries(rows, n_units)
    each = [posting_entries(entries, n_units) for entries in rows]
    assert units.tobytes() == np.concatenate([u for u, _ in each]).tobytes()
    assert weights.tobytes() == np.concatenate([w for _, w in each]).tobytes()
    assert counts.tolist() == [len(u) for u, _ in each]
    assert [len(a) for a in document_entries([], n_units)] == [0, 0, 0]


def test_a_damaged_postings_row_is_refused_when_a_documents_rows_are_decoded_at_once():
    rows = _rows(np.random.default_rng(1), 300, 4)
    for damaged in (rows[1][:-1], b"x" + rows[0][1:], b"", ONE_WEIGHT + rows[1][1:5]):
        with pytest.raises(ValueError, match="whole number"):
            document_entries(rows[:2] + [damaged] + rows[2:], 300)
    with pytest.raises(ValueError, match="past the document's end"):
        document_entries(rows, 10)


def test_best_first_keeps_the_units_a_stable_sort_by_descending_score_keeps():
    rng = np.random.default_rng(7)
    for _ in range(50):
        scores = rng.integers(0, 6, 200).astype(np.float32)  # many ties
        matched = np.flatnonzero(scores > 0)
        for count in (1, 10, 64, 500):
            expected = sorted(matched[np.argsort(-scores[matched], kind="stable")][:count].tolist())
            assert best_first(matched, scores, count).tolist() == expected


def test_best_cosines_are_the_first_of_a_lexsort_of_every_pooled_unit():
    rng = np.random.default_rng(11)
    for _ in range(30):
        values = (rng.integers(0, 40, 3000) / 40).astype(np.float32)  # many ties
        places, units = rng.integers(0, 24, 3000), rng.integers(0, 5000, 3000)
        for count in (1, 128, 5000):
            expected = np.lexsort((units, places, -values))[:count]
            assert best_cosines(values, places, units, count).tolist() == expected.tolist()


def test_united_positions_are_the_sorted_union_of_the_arrays():
    rng = np.random.default_rng(5)
    parts = [rng.choice(300, int(rng.integers(0, 80)), replace=False) for _ in range(4)]
    assert united(300, *parts).tolist() == sorted(set(np.concatenate(parts).tolist()))
    assert united(300).tolist() == []


def test_rounded_scores_are_pythons_round_of_each_score():
    rng = np.random.default_rng(3)
    halves = (np.arange(1, 2000) + 0.5) / 10.0**SCORE_DECIMALS  # the half-way scores round() settles exactly
    scores = np.concatenate([rng.random(20000), halves, [0.0, 1.0, 0.1234565, 0.2500005]])
    assert rounded_scores(scores).tolist() == [round(s, SCORE_DECIMALS) for s in scores.tolist()]


def test_in_statements_tells_the_units_of_the_asked_statements():
    codes = np.asarray([0, 1, 2, 3, 4, 1, 0], dtype=np.uint8)
    assert in_statements(codes, {1, 3}).tolist() == [False, True, False, True, False, True, False]
    assert in_statements(codes.astype(np.int64), {4}).tolist() == (codes == 4).tolist()
    assert not in_statements(codes, set()).any()


def _entity_lists(layout: UnitLayout, position: int) -> tuple:
    """A unit's entities and context entities, read from the unit the layout makes."""
    unit = layout.units[position]
    return unit.entities, unit.context_entities


def _filtered_one_at_a_time(layout: UnitLayout, positions: list[int], query_entities: frozenset[str],
                            query_words: frozenset[str]) -> tuple[list[bool], list[bool]]:
    """The entity filter as fusion ran it before, unit by unit."""
    keep, about = [], []
    for position in positions:
        entities, context = _entity_lists(layout, position)
        kept = not (context and names_parent_of(context[0], query_words))
        if query_entities:
            kept = kept and not (context and query_entities.isdisjoint(context))
            kept = kept and not (entities and entities[0] not in query_entities)
        keep.append(bool(kept))
        about.append(bool(query_entities) and not query_entities.isdisjoint(context))
    return keep, about


def test_the_entity_filter_over_arrays_keeps_and_lifts_the_units_the_unit_by_unit_filter_did():
    doc = compile("Kestrel Dynamics Inc. reported revenue of 1,200 in 2024.\n"
                  "Kestrel Dynamics Korea Co., Ltd. reported revenue of 300.\n"
                  "Borealis Energy Corp. reported revenue of 980, unlike Kestrel Dynamics Inc.\n"
                  "Revenue of the group rose.\n", document_id="brief")
    layout = UnitLayout.from_document(doc)
    named = sorted({e for u in doc.units for e in (*u.entities, *u.context_entities)})
    assert len(named) >= 2
    positions = list(range(len(layout)))
    for query_entities in (frozenset(), frozenset(named[:1]), frozenset(named[1:]), frozenset({"NOBODY"})):
        for query_words in (frozenset(), frozenset({"KESTREL", "DYNAMICS"})):
            keep, about = entity_filter(layout, np.asarray(positions), query_entities, query_words)
            assert (keep.tolist(), about.tolist()) == _filtered_one_at_a_time(layout, positions, query_entities,
                                                                             query_words)


def _fused_one_at_a_time(candidates, priors, query_entities, statements, gate, query_words):
    """fusion.fuse as it ran before, anchor by anchor."""
    from semantic_json.search.fusion import (ENTITY_MATCH_BONUS, FIGURELESS_FACTOR, LEXICAL_WEIGHT, RELATIVE_ANCHOR_FLOOR,
                                             STATEMENT_MATCH_BONUS, score_scale)

    best_lexical = max((float(c.bm25.max()) for c in candidates if c.bm25 is not None and len(c.bm25)), default=0.0)
    scale = score_scale(priors, bool(query_entities), bool(statements))
    scored = []
    for candidate in candidates:
        lift = priors.lift(candidate.document_id)
        bm25, codes, figures = candidate.bm25, candidate.statement_codes, candidate.figure_flags
        for position, cosine in zip(candidate.positions, candidate.cosines.tolist()):
            context = ()
            if query_entities or query_words:
                entities, context = _entity_lists(candidate.layout, position)
                if context and names_parent_of(context[0], query_words):
                    continue
            if query_entities:
                if context and query_entities.isdisjoint(context):
                    continue
                if entities and entities[0] not in query_entities:
                    continue
            lexical = float(bm25[position]) / best_lexical if bm25 is not None and best_lexical else 0.0
            if figures is not None and not figures[position]:
                lexical *= FIGURELESS_FACTOR
            if gate and lexical == 0.0:
                continue
            score = (1.0 - LEXICAL_WEIGHT) * cosine + LEXICAL_WEIGHT * lexical + lift
            if query_entities and not query_entities.isdisjoint(context):
                score += ENTITY_MATCH_BONUS
            if codes is not None and int(codes[position]) in statements:
                score += STATEMENT_MATCH_BONUS
            scored.append((candidate.document_id, position, round(min(max(score / scale, 0.0), 1.0), SCORE_DECIMALS)))
    if not scored:
        return {}
    floor = max(s for _, _, s in scored) * RELATIVE_ANCHOR_FLOOR
    hits = {}
    for document_id, position, score in scored:
        if score >= floor:
            hits.setdefault(document_id, []).append((position, score))
    return hits


def test_fusion_over_arrays_scores_every_anchor_as_the_anchor_by_anchor_fusion_did():
    from semantic_json import SemanticRepository
    from semantic_json.search.candidates import plan_query
    from semantic_json.search.fusion import DocumentPriors, fuse

    repo = SemanticRepository()
    texts = {"kestrel": "Kestrel Dynamics Inc. reported revenue of 1,200 in 2024.\nKestrel Dynamics Korea Co., Ltd. "
                        "reported revenue of 300 in 2024.\nOperating income was 210 and net income was 150.\n",
             "borealis": "Borealis Energy Corp. reported revenue of 980 in 2024, unlike Kestrel Dynamics Inc.\n"
                         "Operating margin rose to 12% as operating income grew.\n"}
    for document_id, text in texts.items():
        repo.add(compile(text, document_id=document_id))
    search = repo._search
    for query in ("Kestrel Dynamics revenue in 2024", "What was the operating margin of Borealis Energy?",
                  "net income", "revenue"):
        plan = plan_query(query, repo.embedder)
        routed = list(repo.documents)
        bm25 = search.bm25(plan, routed, repo._store.totals(), {})
        priors = DocumentPriors(True, {"kestrel": 1.0, "borealis": 0.5}, {"borealis": 1.0}, frozenset({"kestrel"}))
        for gate in (True, False):
            candidates = search.candidates(plan, routed, bm25, 5, gate, 0.0, None)
            assert candidates
            for statements in (plan.statements, frozenset({1, 2})):
                expected = _fused_one_at_a_time(candidates, priors, plan.entities, statements, gate, plan.words)
                assert fuse(candidates, priors, plan.entities, statements, gate, plan.words) == expected
