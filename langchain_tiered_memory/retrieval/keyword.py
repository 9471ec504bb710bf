"""`KeywordIndex`: an incremental Okapi BM25 over token lists.

Scores are Okapi BM25 with Lucene's non-negative idf, ``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))``
(k1=1.2, b=0.75), over the live documents. BM25Okapi's raw ``ln((N - df + 0.5) / (df + 0.5))`` goes
negative for a word in more than half the documents, so in a three-memory namespace a document
matching the query could score below one matching nothing; Lucene's form is positive and still
falls with document frequency. The index is built for a store that writes all the time:

* each term keeps a compact posting list (document slot, term frequency) in ``array.array``
  buffers that grow in amortised O(1); a query reads them as numpy arrays, so scoring is
  vectorised and a write never rebuilds anything;
* a removed document only has its slot marked dead; the statistics (N, document frequencies,
  total length) are updated at once, dead postings are masked at query time and purged term by
  term (or all at once when dead slots outnumber live ones), amortised;
* idf depends only on N and a term's document frequency, so nothing global is ever recomputed.
"""

from __future__ import annotations

import math
import threading
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["KeywordIndex"]

_MIN_COMPACT_SLOTS = 4096


class KeywordIndex:
    """Incremental BM25 (Okapi) index from document ids to token lists.

    Thread-safe: every public method holds one lock, so the store may write from one thread while
    another searches.

    Args:
        k1: Term-frequency saturation.
        b: Length normalisation.
    """

    def __init__(self, *, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1 = k1
        self.b = b
        self._lock = threading.RLock()
        # Vocabulary: term -> term id, and per term id its postings and live document frequency.
        self._term_ids: dict[str, int] = {}
        self._terms: list[str] = []
        self._post_slots: list[array[int]] = []
        self._post_tf: list[array[int]] = []
        self._term_dead: list[int] = []
        self._df = np.zeros(64, dtype=np.int64)
        # Document slots: id per slot (None when dead), length, live mask, unique term ids.
        self._slot_ids: list[str | None] = []
        self._slot_terms: list[array[int]] = []
        self._doc_len = np.zeros(64, dtype=np.float64)
        self._alive = np.zeros(64, dtype=bool)
        self._slot_of: dict[str, int] = {}
        self._total_len = 0
        # Bumped by every change; keys the one-query score cache of `_score`.
        self._writes = 0
        self._last_scored: (
            tuple[tuple[tuple[str, ...], int], npt.NDArray[np.float64], npt.NDArray[np.bool_]] | None
        ) = None

    # -- size -----------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._slot_of)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._slot_of

    def nbytes(self) -> int:
        """Approximate memory held by the index (postings, vocabulary and per-document arrays).

        An estimate for cache budgets, not an exact count: Python object overheads are counted
        at typical CPython sizes.
        """
        with self._lock:
            postings = sum(a.buffer_info()[1] * a.itemsize for a in self._post_slots)
            postings += sum(a.buffer_info()[1] * a.itemsize for a in self._post_tf)
            doc_terms = sum(a.buffer_info()[1] * a.itemsize for a in self._slot_terms)
            vocabulary = 180 * len(self._terms)  # dict entry, str, two arrays, counters
            documents = 160 * len(self._slot_ids)  # id str, dict entry, array header
            arrays = self._df.nbytes + self._doc_len.nbytes + self._alive.nbytes
            return int(postings + doc_terms + vocabulary + documents + arrays)

    @property
    def avgdl(self) -> float:
        """Average document length over live documents (0 when empty)."""
        n = len(self._slot_of)
        return self._total_len / n if n else 0.0

    # -- writes ---------------------------------------------------------------------------------

    def add(self, doc_id: str, tokens: Sequence[str]) -> None:
        """Index a document, replacing any document already stored under ``doc_id``.

        Args:
            doc_id: The document (memory entry) id.
            tokens: Its tokens, repeats kept (term frequency counts).
        """
        with self._lock:
            self._add(doc_id, tokens)

    def add_many(self, pairs: Iterable[tuple[str, Sequence[str]]]) -> None:
        """Index many ``(doc_id, tokens)`` pairs at once (bulk load at open)."""
        with self._lock:
            if self._slot_ids:
                for doc_id, tokens in pairs:
                    self._add(doc_id, tokens)
            else:
                # Last occurrence wins, as with repeated `add`.
                self._bulk_load(list(dict(pairs).items()))

    def _bulk_load(self, pairs: list[tuple[str, Sequence[str]]]) -> None:
        """Fill an empty index: the per-document numpy updates of `_add` become one per load."""
        self._writes += 1
        n = len(pairs)
        if n == 0:
            return
        self._grow_slots(n)
        tid_of = self._term_ids
        post_slots = self._post_slots
        post_tf = self._post_tf
        all_tids = array("i")
        lengths = np.empty(n, dtype=np.float64)
        for slot, (doc_id, tokens) in enumerate(pairs):
            term_ids = array("i")
            # A plain dict: Counter's constructor costs an ABC isinstance check per document.
            counts: dict[str, int] = {}
            for token in tokens:
                counts[token] = counts.get(token, 0) + 1
            for term, tf in counts.items():
                tid = tid_of.get(term)
                if tid is None:
                    tid = self._new_term(term)
                post_slots[tid].append(slot)
                post_tf[tid].append(tf)
                term_ids.append(tid)
            all_tids.extend(term_ids)
            self._slot_ids.append(doc_id)
            self._slot_terms.append(term_ids)
            self._slot_of[doc_id] = slot
            lengths[slot] = len(tokens)
        if all_tids:
            df = np.bincount(np.frombuffer(all_tids, dtype=np.int32), minlength=len(self._terms))
            self._df[: len(df)] += df
        self._doc_len[:n] = lengths
        self._alive[:n] = True
        self._total_len += int(lengths.sum())

    def remove(self, doc_id: str) -> bool:
        """Forget a document. Returns whether it was indexed."""
        with self._lock:
            removed = self._remove(doc_id)
            if removed and self._dead_slots() > max(_MIN_COMPACT_SLOTS, len(self._slot_of)):
                self._compact()
            return removed

    def clear(self) -> None:
        """Forget every document."""
        with self._lock:
            self.__init__(k1=self.k1, b=self.b)  # type: ignore[misc]

    def _add(self, doc_id: str, tokens: Sequence[str]) -> None:
        self._writes += 1
        if doc_id in self._slot_of:
            self._remove(doc_id)
        slot = len(self._slot_ids)
        if slot >= len(self._alive):
            self._grow_slots(slot + 1)
        counts = Counter(tokens)
        term_ids = array("i")
        tid_of = self._term_ids
        for term, tf in counts.items():
            tid = tid_of.get(term)
            if tid is None:
                tid = self._new_term(term)
            self._post_slots[tid].append(slot)
            self._post_tf[tid].append(tf)
            term_ids.append(tid)
        if term_ids:
            self._df[np.frombuffer(term_ids, dtype=np.int32)] += 1
        self._slot_ids.append(doc_id)
        self._slot_terms.append(term_ids)
        self._doc_len[slot] = len(tokens)
        self._alive[slot] = True
        self._slot_of[doc_id] = slot
        self._total_len += len(tokens)

    def _remove(self, doc_id: str) -> bool:
        self._writes += 1
        slot = self._slot_of.pop(doc_id, None)
        if slot is None:
            return False
        terms = self._slot_terms[slot]
        if terms:
            self._df[np.frombuffer(terms, dtype=np.int32)] -= 1
        for tid in terms:
            self._term_dead[tid] += 1
        self._slot_terms[slot] = array("i")
        self._slot_ids[slot] = None
        self._alive[slot] = False
        self._total_len -= int(self._doc_len[slot])
        return True

    def _new_term(self, term: str) -> int:
        tid = len(self._terms)
        self._term_ids[term] = tid
        self._terms.append(term)
        self._post_slots.append(array("i"))
        self._post_tf.append(array("i"))
        self._term_dead.append(0)
        if tid >= len(self._df):
            self._df = np.concatenate([self._df, np.zeros(len(self._df), dtype=np.int64)])
        return tid

    def _grow_slots(self, need: int) -> None:
        cap = max(need, 2 * len(self._alive))
        self._doc_len = np.concatenate([self._doc_len, np.zeros(cap - len(self._doc_len))])
        self._alive = np.concatenate([self._alive, np.zeros(cap - len(self._alive), dtype=bool)])

    def _dead_slots(self) -> int:
        return len(self._slot_ids) - len(self._slot_of)

    def _compact(self) -> None:
        """Renumber live slots densely and drop every dead posting (amortised over removals)."""
        self._writes += 1
        old_slot_of = sorted(self._slot_of.items(), key=lambda kv: kv[1])
        remap = np.full(len(self._slot_ids), -1, dtype=np.int64)
        for new, (_, old) in enumerate(old_slot_of):
            remap[old] = new
        n = len(old_slot_of)
        cap = max(64, 2 * n)
        doc_len = np.zeros(cap)
        old_slots = np.array([old for _, old in old_slot_of], dtype=np.int64)
        doc_len[:n] = self._doc_len[old_slots]
        self._doc_len = doc_len
        self._alive = np.zeros(cap, dtype=bool)
        self._alive[:n] = True
        self._slot_terms = [self._slot_terms[old] for _, old in old_slot_of]
        self._slot_ids = [doc_id for doc_id, _ in old_slot_of]
        self._slot_of = {doc_id: new for new, (doc_id, _) in enumerate(old_slot_of)}
        for tid in range(len(self._terms)):
            slots = np.frombuffer(self._post_slots[tid], dtype=np.int32)
            new_slots = remap[slots]
            keep = new_slots >= 0
            tfs = np.frombuffer(self._post_tf[tid], dtype=np.int32)[keep]
            self._post_slots[tid] = array("i", new_slots[keep].astype(np.int32).tobytes())
            self._post_tf[tid] = array("i", tfs.tobytes())
            self._term_dead[tid] = 0

    def _purge_term(self, tid: int) -> None:
        self._writes += 1
        slots = np.frombuffer(self._post_slots[tid], dtype=np.int32)
        keep = self._alive[slots]
        tfs = np.frombuffer(self._post_tf[tid], dtype=np.int32)[keep]
        self._post_slots[tid] = array("i", slots[keep].tobytes())
        self._post_tf[tid] = array("i", tfs.tobytes())
        self._term_dead[tid] = 0

    # -- idf ------------------------------------------------------------------------------------

    def _raw_idf(self, df: int) -> float:
        n = len(self._slot_of)
        return math.log1p((n - df + 0.5) / (df + 0.5))

    def _idf(self, tid: int) -> float:
        df = int(self._df[tid])
        return 0.0 if df <= 0 else self._raw_idf(df)

    def idf(self, token: str) -> float:
        """The (never negative) BM25 idf of a token; 0 for a token in no live document."""
        with self._lock:
            tid = self._term_ids.get(token)
            return 0.0 if tid is None else self._idf(tid)

    def max_idf(self) -> float:
        """The largest idf a term can have now: that of a term found in exactly one document."""
        with self._lock:
            return self._raw_idf(1) if self._slot_of else 0.0

    def document_frequency(self, token: str) -> int:
        """How many live documents hold ``token``."""
        with self._lock:
            tid = self._term_ids.get(token)
            return 0 if tid is None else int(self._df[tid])

    def terms_of(self, doc_id: str) -> frozenset[str]:
        """The distinct tokens of an indexed document (empty when unknown)."""
        with self._lock:
            slot = self._slot_of.get(doc_id)
            if slot is None:
                return frozenset()
            return frozenset(self._terms[t] for t in self._slot_terms[slot])

    # -- queries --------------------------------------------------------------------------------

    def _score(
        self, query_tokens: Sequence[str]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """Scores over all slots, and the mask of live slots matching at least one query term.

        The last query's arrays are kept until the next write: recall scores the same query
        twice (its top hits, then the BM25 of the vector path's candidates).
        """
        key = (tuple(query_tokens), self._writes)
        if self._last_scored is not None and self._last_scored[0] == key:
            return self._last_scored[1], self._last_scored[2]
        scores, matched = self._score_uncached(query_tokens)
        self._last_scored = (key, scores, matched)
        return scores, matched

    def _score_uncached(
        self, query_tokens: Sequence[str]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        n_slots = len(self._slot_ids)
        scores = np.zeros(n_slots, dtype=np.float64)
        matched = np.zeros(n_slots, dtype=bool)
        if not self._slot_of:
            return scores, matched
        k1, b = self.k1, self.b
        avgdl = self.avgdl or 1.0
        for term, qtf in Counter(query_tokens).items():
            tid = self._term_ids.get(term)
            if tid is None or self._df[tid] <= 0:
                continue
            if self._term_dead[tid] * 2 > len(self._post_slots[tid]):
                self._purge_term(tid)
            idf = self._idf(tid)
            slots = np.frombuffer(self._post_slots[tid], dtype=np.int32)
            tf = np.frombuffer(self._post_tf[tid], dtype=np.int32).astype(np.float64)
            norm = k1 * (1.0 - b + b * self._doc_len[slots] / avgdl)
            # A term repeated in the query adds its contribution once per repeat.
            scores[slots] += (qtf * idf) * (tf * (k1 + 1.0) / (tf + norm))
            matched[slots] = True
        matched &= self._alive[:n_slots]
        return scores, matched

    def scores(self, query_tokens: Sequence[str]) -> dict[str, float]:
        """BM25 score of every live document (0 for those matching nothing), like ``get_scores``."""
        with self._lock:
            scores, _ = self._score(query_tokens)
            return {doc_id: float(scores[slot]) for doc_id, slot in self._slot_of.items()}

    def score_ids(self, query_tokens: Sequence[str], ids: Iterable[str]) -> dict[str, float]:
        """BM25 of the given documents (0 for those matching nothing; unknown ids left out).

        Fusion wants the true score of a candidate that only the vector path found: it may
        match the query and rank just below the keyword path's cut.
        """
        with self._lock:
            scores, _ = self._score(query_tokens)
            slot_of = self._slot_of
            return {d: float(scores[slot_of[d]]) for d in ids if d in slot_of}

    def search(
        self,
        query_tokens: Sequence[str],
        k: int,
        *,
        allowed: Callable[[str], bool] | None = None,
    ) -> list[tuple[str, float]]:
        """The ``k`` best documents matching at least one query token.

        Args:
            query_tokens: Tokens of the query (repeats count).
            k: How many hits at most.
            allowed: Optional filter on document ids (namespace, tier, tags...); it is called
                only on the best-scoring candidates, as many as needed to fill ``k``.

        Returns:
            ``(doc_id, score)`` pairs, best first; ties keep insertion order.
        """
        if k <= 0:
            return []
        with self._lock:
            scores, matched = self._score(query_tokens)
            cand = np.flatnonzero(matched)
            if not len(cand):
                return []
            cand_scores = scores[cand]
            ids = self._slot_ids
            out: list[tuple[str, float]] = []
            # Without a filter the top k suffice; with one, try the top 4k and only sort every
            # candidate if the filter rejected too many.
            for want in ((k,) if allowed is None else (4 * k, len(cand))):
                out = []
                for pos in self._top(cand_scores, cand, want):
                    doc_id = ids[int(cand[pos])]
                    if doc_id is None or (allowed is not None and not allowed(doc_id)):
                        continue
                    out.append((doc_id, float(cand_scores[pos])))
                    if len(out) >= k:
                        return out
                if want >= len(cand):
                    break
            return out

    @staticmethod
    def _top(
        cand_scores: npt.NDArray[np.float64], cand: npt.NDArray[np.int64], m: int
    ) -> npt.NDArray[np.int64]:
        """Positions of the ``m`` best candidates, sorted by score then slot."""
        if m < len(cand_scores):
            part = np.argpartition(-cand_scores, m - 1)[:m]
        else:
            part = np.arange(len(cand_scores))
        return part[np.lexsort((cand[part], -cand_scores[part]))]
