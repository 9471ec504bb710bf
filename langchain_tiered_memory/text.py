"""Tokenizers for keyword recall: English and Chinese, and text that mixes both.

`tokenize` is called on every write (the tokens are stored with the entry) and on every query, and
again for every row when a store opens, so it is built for speed: one regular expression splits the
text into runs of CJK characters and runs of other letters/digits, English words are lower-cased,
stripped of stop words and Snowball-stemmed (stems cached), and CJK runs are segmented with jieba
(loaded on first use, because importing it costs about a second).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable
from typing import Any

__all__ = [
    "CHINESE_STOP_WORDS",
    "ENGLISH_STOP_WORDS",
    "is_mostly_cjk",
    "is_stop_word",
    "stem",
    "tokenize",
    "tokenize_many",
]

# CJK unified ideographs (basic, extension A, compatibility). Kana and Hangul are left to the
# word pattern: they are rare in this project's data and space-delimited enough for keyword match.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_RE = re.compile(rf"([{_CJK}]+)|((?:[^\W_{_CJK}])+(?:['’](?:[^\W_{_CJK}])+)*)")
_APOSTROPHES = str.maketrans("", "", "'’")


def _words(block: str) -> list[str]:
    return block.split()


ENGLISH_STOP_WORDS: frozenset[str] = frozenset(
    _words("""
    a about above after again against all am an and any are aren't as at be because been before
    being below between both but by can can't cannot could couldn't did didn't do does doesn't doing
    don't down during each few for from further had hadn't has hasn't have haven't having he he'd
    he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in into
    is isn't it it's its itself let's me more most mustn't my myself no nor not of off on once only
    or other ought our ours ourselves out over own same shan't she she'd she'll she's should
    shouldn't so some such than that that's the their theirs them themselves then there there's
    these they they'd they'll they're they've this those through to too under until up very was
    wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while
    who who's whom why why's will with won't would wouldn't you you'd you'll you're you've your
    yours yourself yourselves also just s t d ll m re ve yeah yes oh ok okay really
    """)
) | frozenset(
    # The same contractions written without the apostrophe ("dont"), as chat text often is.
    w.translate(_APOSTROPHES)
    for w in _words("""aren't can't couldn't didn't doesn't don't hadn't hasn't haven't
    isn't mustn't shan't shouldn't wasn't weren't won't wouldn't i'm i've i'd i'll
    you're you've it's that's what's let's""")
)
"""Lower-case English words that never count as keyword evidence."""

CHINESE_STOP_WORDS: frozenset[str] = frozenset(
    _words("""
    的 了 是 在 我 有 和 就 不 人 都 一 一个 上 也 很 到 说 要 去 你 会 着 没有 看 好
    自己 这 那 他 她 它 们 我们 你们 他们 她们 吗 呢 吧 啊 呀 哦 嗯 把 被 让
    给 从 对 与 及 或 而 但 但是 如果 因为 所以
    这个 那个 这些 那些 什么 怎么 怎么样 哪 哪里 哪个 为什么 还 又 再 已经 可以 能 之 其 以 于 为 等
    并 则 即 个 地 得 过 吗 么 里 中 后 前 时 此 该 各 每 啦 吧 哈 嘛
    """)
)
"""Chinese function words that never count as keyword evidence."""

_STOP_WORDS = ENGLISH_STOP_WORDS | CHINESE_STOP_WORDS

_stem_cache: dict[str, str] = {}
_STEM_CACHE_MAX = 200_000
_stemmer_fn: Callable[[str], str] | None = None
_jieba_cut: Callable[[str], Iterable[str]] | None = None
_lazy_lock = threading.Lock()


_CJK_CHAR = re.compile(f"[{_CJK}]")
_OTHER_WORD = re.compile(rf"[^\W_{_CJK}]+")


def is_mostly_cjk(text: str) -> bool:
    """Whether at least half of the text's words are Chinese (each ideograph counts as a word)."""
    cjk = len(_CJK_CHAR.findall(text))
    return cjk > 0 and cjk >= len(_OTHER_WORD.findall(text))


def is_stop_word(token: str) -> bool:
    """Whether a (lower-cased) token is an English or Chinese stop word."""
    return token in _STOP_WORDS


def _english_stemmer() -> Callable[[str], str]:
    global _stemmer_fn
    if _stemmer_fn is None:
        import snowballstemmer

        # A Snowball stemmer keeps its working buffer on the instance, so each thread gets its own.
        local = threading.local()

        def _stem(word: str) -> str:
            inst: Any = getattr(local, "stemmer", None)
            if inst is None:
                inst = local.stemmer = snowballstemmer.stemmer("english")
            return str(inst.stemWord(word))

        _stemmer_fn = _stem
    return _stemmer_fn


def stem(word: str) -> str:
    """Snowball (English) stem of a lower-case word, cached.

    Args:
        word: A lower-case word.

    Returns:
        The stem; words with digits are returned unchanged.
    """
    cached = _stem_cache.get(word)
    if cached is not None:
        return cached
    out = word if not word.isalpha() else _english_stemmer()(word)
    if len(_stem_cache) >= _STEM_CACHE_MAX:
        _stem_cache.clear()
    _stem_cache[word] = out
    return out


def _jieba() -> Callable[[str], Iterable[str]]:
    global _jieba_cut
    if _jieba_cut is None:
        with _lazy_lock:
            if _jieba_cut is None:
                # jieba logs "Building prefix dict..." at DEBUG through its own handler while it
                # initialises; raise its logger's level for that moment only and put it back, so
                # the application's logging configuration is left as it was.
                import jieba  # sets its own logger to DEBUG on import

                jlog = logging.getLogger("jieba")
                before = jlog.level
                jlog.setLevel(logging.WARNING)
                try:
                    tok = jieba.Tokenizer()
                    tok.initialize()
                finally:
                    jlog.setLevel(before)
                _jieba_cut = tok.lcut_for_search
    return _jieba_cut


def _cjk_tokens(run: str, out: list[str]) -> None:
    if len(run) == 1:
        if run not in _STOP_WORDS:
            out.append(run)
        return
    for word in _jieba()(run):
        if word and word not in _STOP_WORDS:
            out.append(word)


def tokenize(text: str) -> list[str]:
    """Split text into keyword-recall tokens.

    English (and other alphabetic) words are lower-cased, stop words dropped, and Snowball-stemmed;
    possessive ``'s`` is dropped and other apostrophes removed (``don't`` -> ``dont``). Runs of
    Chinese characters are segmented with jieba in search mode (words plus their sub-words), Chinese
    stop words dropped. Mixed text is handled run by run.

    Args:
        text: Any text.

    Returns:
        The tokens, in text order, with repeats kept (BM25 needs term frequency).
    """
    if not text:
        return []
    out: list[str] = []
    stop = _STOP_WORDS
    cache = _stem_cache
    for match in _TOKEN_RE.finditer(text.lower()):
        cjk, word = match.groups()
        if cjk is not None:
            _cjk_tokens(cjk, out)
            continue
        if "'" in word or "’" in word:
            word = word.replace("’", "'")
            if word in stop:
                continue
            if word.endswith("'s"):
                word = word[:-2]
            word = word.replace("'", "")
        if word in stop:
            continue
        stemmed = cache.get(word)
        if stemmed is None:
            stemmed = stem(word)
        out.append(stemmed)
    return out


def tokenize_many(texts: Iterable[str]) -> list[list[str]]:
    """`tokenize` applied to many texts (for bulk loads)."""
    return [tokenize(t) for t in texts]
