"""Write-path scanner benchmark: detection and false positives per family and split, speed.

Measures, in one run:

* detection on the attack corpora, per family, for each *split*:

  - ``own-dev``: the project's rows the rules were written from (``split: dev`` in
    ``benchmarks/data/security_attacks.jsonl``);
  - ``own-blind``: the project's rows written before the structural rules (``split: blind``);
    the last rule additions were made after their misses had been seen, so this figure is
    optimistic;
  - ``own-blind2``: a second batch written after the rules and never tuned on
    (``split: blind2``);
  - ``own3-dev`` / ``own3-blind``: a third batch (``security_own3_*.jsonl``, scanner2 helper);
    its blind half was written before the rules it drove and never tuned on;
  - ``independent``: ``security_blind_attacks.jsonl`` / ``security_blind_benign.jsonl`` when
    present (written by someone else; rows may carry ``label`` instead of living in two files);
  - ``fresh-a``: ``security_fresh_a_*.jsonl``, a red-teamer who never saw the scanner (dev for
    the scanner3 helper: its aggregate figures were looked at);
  - ``fresh-b``: ``security_fresh_b_*.jsonl``, a second such red-teamer; blind until session 5,
    then dev (its misses drove the addressed-order detector, ``security/addressed.py``);
  - ``fresh-e``: ``security_fresh_e_intl_*.jsonl``, multilingual overrides, planted orders and
    benign look-alikes in FR/ES/DE/IT/PT/RU/JA/KO, written by the intl helper before it read the
    scanner or any corpus (dev for the multilingual detector, ``security/addressed_intl.py``);
  - ``fresh-d``: ``security_fresh_d_*.jsonl`` (``data/make_security_fresh_d.py``), five voices
    written by the zh-gen helper from the issue's family descriptions before it read any corpus
    or pattern; its first run was blind, then dev for the zh hijack and indirect rules;
  - ``public``: ``security_public_*.jsonl``, public tools' corpora plus look-alikes
    (``data/make_security_public.py``; see ``data/README.md``);
  - ``fresh-c``: ``security_fresh_c_*.jsonl``, a third red-teamer who never saw the scanner or
    its corpora, the blind set: it is read only with ``--split fresh-c``, never by default;
  - ``fresh-g``: ``security_fresh_g_*.jsonl``, a fourth red-teamer (session 6 helper) who saw no
    code and no data of the project; blind like ``fresh-c``, read only with ``--split fresh-g``;
  - ``fresh-h``: ``security_fresh_h_*.jsonl``, a fifth one, asked for hard benign texts (manuals,
    policies, prompt templates, test code, human e-mails); blind, ``--split fresh-h`` only;
  - ``fresh-i``: ``security_fresh_i_benign.jsonl``, benign only (its attacks file is empty), a
    sixth author; blind, ``--split fresh-i`` only;
  - ``fresh-j`` and ``fresh-k``: ``security_fresh_j_*`` / ``security_fresh_k_*``, a seventh and
    an eighth author (session 7 helpers: a red-team researcher, a QA engineer writing workplace
    genres) who saw no code and no data; attacks and hard benign texts; blind, by name only;
  - ``fresh-l``: ``security_fresh_l_*``, a ninth author (a penetration tester of e-commerce,
    coding, travel and finance agents, and a technical writer for the benign side); blind;
  - ``fresh-m``: ``security_fresh_m_*``, a tenth author (a Chinese-speaking safety researcher:
    zh hijack, indirect, memory poisoning; hard zh and English benign texts); blind;
  - ``fresh-n`` and ``fresh-o``: ``security_fresh_n_*`` / ``security_fresh_o_*``, an eleventh and
    a twelfth author (session 8 helpers: an operations engineer of a bank's support chatbot and
    hospital/school document assistants; the organiser of a prompt-injection CTF for browsing,
    e-mail and workplace-chat agents) who saw no code and no data; blind, by name only;
  - ``fresh-p`` and ``fresh-q``: a thirteenth and a fourteenth author (session 8 helpers: the
    product-security lead of a personal assistant with long-term memory, once a payments fraud
    analyst, with 70 memory-poisoning attacks and 80 user preferences close to them; a
    localisation engineer turned red-teamer of Chinese government, bank and telecom assistants
    and of English coding agents), who saw no code and no data; blind, by name only;
  - ``fresh-r`` and ``fresh-s``: a fifteenth and a sixteenth author (session 8 helpers: a
    researcher of scams and influence operations aimed at assistants, English and Chinese; an
    engineer of back-office agents for HR, legal, procurement and claims), who saw no code and
    no data; blind, by name only;
  - ``fresh-t`` and ``fresh-u``: a seventeenth and an eighteenth author (session 8 helpers: a
    trust-and-safety lead of an assistant with long-term memory, once a forum moderator and bank
    phishing handler; a penetration tester of support, CRM, recruiting, education and health
    agents), who saw no code and no data; half their indirect rows address no reader; blind;
  - ``fresh-v`` ... ``fresh-y``: four more authors (session 9 helpers: a risk-control engineer of
    a Chinese e-commerce platform; an NLP researcher building agent-security benchmarks from tool
    outputs; a compliance officer of a Hong Kong law firm and insurer, formal Chinese, a third in
    traditional characters; a community manager of a game and a homework app, slang and memes),
    who saw no code and no data; blind;
  - ``fresh-z1`` and ``fresh-z2``: two more (session 9 helpers: a security engineer of an online
    travel agency, once a WeChat/Xiaohongshu moderator; a health-IT analyst of a bilingual
    Shanghai hospital), held back unmeasured until the end of the session's rule rounds;
  - ``fresh-aa`` and ``fresh-ab``: two more (session 10 helpers: an SRE red-teaming coding agents
    and RAG over Confluence, Jira, Slack and CI logs, writing traditional, simplified and
    Cantonese Chinese; a trust-and-safety lead of a live-selling and group-buying app), held out
    of the learned model's training and measured once, at the end of session 10; trained on
    in session 11;
  - ``fresh-ac`` and ``fresh-ad``: two more (session 11 helpers: a legal-tech product manager in
    Shanghai who also teaches retirees to use WeChat safely; a Singapore penetration tester of
    travel, hotel and e-mail assistants, Malaysian Chinese), held out of the learned model's
    training and measured once, after the first session-11 rules and model were frozen; then
    their benign false positives were read and the model trained on them;
  - ``fresh-ae`` ... ``fresh-ah``: four more (session 11 helpers: a product manager of a Chinese
    tutoring app; a DevSecOps lead of a European bank's copilots; a Taipei health-insurance
    claims analyst; an SEO marketer turned AI-safety contractor): their benign false positives
    were read and the model trained on them;
  - ``fresh-ai`` and ``fresh-aj``: two more (session 11 helpers: an IT auditor of a Chinese
    provincial data bureau, official Chinese; a Hong Kong maintainer of a Python web framework
    who reviews coding agents' pull requests), held out of everything and measured once in
    session 11; then their benign false positives were read and the model trained on them;
  - ``fresh-ak`` ... ``fresh-an``: four more (session 11 helpers: a fraud-operations manager of
    a Hong Kong virtual bank; a smart-home UX researcher; a Shenzhen procurement analyst; a
    Beijing medical student annotating for a safety vendor): benign false positives read, model
    trained on them;
  - ``fresh-ao`` and ``fresh-ap``: two more (session 11 helpers: a journalist covering AI scams in
    Taiwan and Southeast Asia; a Canadian TA and CTF player who designs prompt-injection
    challenges), held out of everything; looked at five times at the end of session 11 (the
    frozen model, then after four fixes made for false positives and failures elsewhere); the
    session-12 model is trained on them;
  - ``fresh-aq`` and ``fresh-ar``: two more (session 12 helpers: a customer-success lead of an
    Indian HR/payroll SaaS who learned Mandarin in Chengdu; a retired Chinese-literature teacher
    in Malaysia who moderates an elders' community and a library's reading club), written after
    the session-11 model and looked at once with it; then AQ joined the training and AR stayed
    held out;
  - ``fresh-as`` ... ``fresh-ax``: six more (session 12 helpers: a Korean-Chinese localisation
    engineer of game-community bots; a Singapore nurse informaticist; a Guangzhou proptech
    tester; a Nairobi sub-editor red-teaming newsroom tools; a Hangzhou trading-operations
    analyst; a Toronto newcomer-services coordinator): AS and AT held out of everything, the
    model trained on AU ... AX;
  - ``fresh-ay`` ... ``fresh-bb``: four more (session 13 helpers: a Shenzhen cross-border
    e-commerce dispatcher; a Shanghai-born computational-linguistics PhD student in Edinburgh; a
    high-school IT teacher in Gansu; a Hong Kong-born insurance-claims adjuster in Sydney),
    written before session 13's rule changes were measured on them and held out of everything;
  - ``fresh-bc`` and ``fresh-bd``: two more (session 13 helpers: an Auckland library's
    digital-services librarian; a Taipei QA engineer of a ride-hailing and delivery app), written
    late in session 13 and looked at once, with its final rules;
  - ``fresh-be`` ... ``fresh-bh``: four more (session 14 helpers: a Lagos fintech compliance
    analyst; a Wuhan hospital pharmacist; a Berlin developer-relations engineer of Taiwanese
    family; a Chongqing logistics HR officer), looked at once in aggregate with the hit review;
    then BE's and BG's false positives were read and the model trained on them, BF and BH held
    out;
  - ``fresh-bi`` and ``fresh-bj``: two more (session 14 helpers: a Kuala Lumpur
    property-management operations lead; a Harbin chemistry teacher), held out of everything and
    looked at once, at the end of session 14;
  - ``fresh-bk`` ... ``fresh-bn``: four more (session 15 helpers: a Shenzhen cross-border
    e-commerce operations specialist; a Taipei clinic head nurse; a Toronto school librarian and
    IT coordinator; a Chengdu mobile-game QA lead), looked at once in aggregate; then BK's and
    BL's false positives were read (rules written from them), BM and BN held out; all four
    joined the training of both models in session 19;
  - ``fresh-bo`` ... ``fresh-br``: four more (session 15 helpers: a Ho Chi Minh City garment
    exporter's accountant; a Henan county high school's deputy principal; a Manila crypto-wallet
    community manager; a Hong Kong claims supervisor), held out of everything until session 19,
    when they joined the training of both models (rows still unread);
  - ``fresh-bs`` ... ``fresh-bv``: four more (session 18 helpers: a Qingdao veterinary-clinic
    chain's manager; a Macau resort's guest-services IT lead; a Shaanxi fruit-growers'
    cooperative's coordinator; a London court and police interpreter), written while the session
    was at 97bacd4; looked at three times in aggregate (the scanner before and after the
    session-18 review thresholds, and a veto not shipped), then in session 19 their false
    positives were read and they joined the training of both models;
  - ``fresh-bw`` ... ``fresh-bz``: four more (session 19 helpers: a Chengdu primary school's
    deputy head; a Toronto mortgage brokerage's operations analyst; a Shenzhen hardware
    start-up's firmware engineer; a Taipei teaching hospital's administrative clerk), written
    while the session was at d9d1ce1, held out of everything and looked at four times in
    aggregate; in session 20 their false positives were read and they joined the model's training;
  - ``fresh-ca`` ... ``fresh-cd``: four more (session 19 helpers, later the same session: a
    Suzhou electronics factory's HR business partner; a Singapore travel agency's operations
    manager; a Kaohsiung fishing-tackle exporter's sales assistant; a Beijing law firm's
    paralegal), held out of everything; looked at eight times in aggregate (one look by rule name
    in session 21 withdrew a change);
  - ``fresh-ce`` ... ``fresh-ch``: four more (session 20 helpers: a Guangzhou residential
    estate's property-office supervisor; a Hong Kong statistics teaching assistant; a Hangzhou
    restaurant group's purchasing officer; a Berlin SaaS company's customer-success engineer for
    Chinese clients), written while the session was at 9f6d5db, held out of everything and looked
    at seven times in aggregate (none choosing a level);
  - ``fresh-ci`` ... ``fresh-cl``: four more (session 20 helpers, later the same session: a Wuhan
    logistics dispatcher; a Vancouver community pharmacist; a Shanghai brokerage's back-office
    clerk; a Taichung game localiser), held out of everything; looked at once, in aggregate, at
    the end of session 21 (the blind figure of that session);
  - ``fresh-cm`` ... ``fresh-cp``: four more (session 21 helpers: a Shenzhen product manager of a
    smart-home and in-car voice assistant; a Taipei red-teamer of a bubble-tea chain's shopping
    agents; a Beijing university's data engineer of retrieval over papers and lab notebooks; a
    Ningbo-Rotterdam customs-brokerage support lead), held out of the model; CM and CN were read
    in session 21 (dev for the rules), CO and CP held out of everything; looked at once, in
    aggregate, at the end of session 22 (with CS and CT, the blind figure of that session);
  - ``fresh-cq`` ... ``fresh-ct``: four more (session 22 helpers: a Hong Kong private bank's
    compliance officer; a Chengdu mobile-game studio's community manager; a Singapore hospital's
    clinical-informatics nurse; a Hangzhou livestream e-commerce operations lead), held out of the
    model; CQ and CR were read in session 22 (dev for the rules), CS and CT held out of
    everything and looked at once, in aggregate, at the end of session 22; CO, CP, CS and CT
    were read in session 23 (dev for the rules, still held out of the model);
  - ``fresh-cu`` ... ``fresh-cx``: four more (session 23 helpers: the IT administrator of a
    Chengdu hotpot chain; a clinical research coordinator at a Taipei teaching hospital; a DevOps
    engineer at a Berlin fintech with a Chinese co-founder; a Guangzhou secondary-school teacher
    writing some Cantonese), held out of the model, looked at twice, in aggregate, in session 23;
    read in session 24 (dev for the rules);
  - ``fresh-cy`` ... ``fresh-db``: four more (session 24 helpers: a customer-support lead at a
    Hangzhou cross-border e-commerce seller; a paralegal at a Hong Kong law firm writing
    Cantonese; a SOC analyst at a Singapore bank; an agricultural-science graduate student in
    Wuhan), held out of everything, looked at six times, in aggregate, in session 24 (before
    and after its rule changes, and after each later change);
  - ``fresh-dc`` ... ``fresh-df``: four more (session 25 helpers: a primary-school maths teacher
    in Chengdu writing some Sichuanese; an IT coordinator at a Taipei district hospital; a
    firmware engineer at a Shenzhen hardware start-up; a Beijing second-hand-housing estate
    agent), held out of everything, looked at in aggregate in session 25 (before and after its
    rule changes, and at its end; twice more for a model retrain not shipped, see
    ``data/README.md``);
  - ``fresh-prefs``: 200 user preferences and 80 hostile rules written in their shape (memory
    poisoning), 140 of them in Chinese, by a session 21 helper who saw no code; dev from its
    first read (the first look: 3 of 200 preferences refused, 47 of 80 hostile rules);
  - ``fresh-chat``: 300 Chinese requests to an assistant full of the words a naive scanner fears
    and 100 Chinese hijacks written in the same request shape, and 300 chat turns and short
    exchanges (English, Chinese, mixed), by two session 22 helpers who saw no code; dev from its
    first read (the first look: 2 of 300 requests, 6 of 300 chat turns refused, 96 of 100
    hijacks caught);
  - ``fresh-disguised``: attacks disguised as discussions of attacks (a security slide or a
    红队 note with a real, unquoted order in it) and harmless discussions beside them, 80 + 80
    (a session 15 helper), held out of everything;

* false positives on the benign sets (same splits, per family) and on every LoCoMo dev turn
  (``../shared/data/locomo-dev`` or ``--data``);
* each of the above with the rules alone, with the learned n-gram second opinion (with its hit
  review, as shipped, and without it: ``no review``), and with the semantic detector (MiniLM sentence windows + linear head, :mod:`~langchain_tiered_memory.
  security.semantic`; ``--no-semantic`` leaves it out);
* the seed's naive three-regex scanner as a baseline, and with ``--baseline REV`` the package's
  scanner as it was at git revision ``REV`` (run in a subprocess), e.g. ``--baseline 12ba043``
  for the pattern version 1.2.0 scanner that preceded the structural rules;
* time to scan 1 MB of LoCoMo text, the mean cost of one short memory and of one 10 KB
  document per scanner.

Bars: real conversation turns FP <= 0.5 %, benign texts with trigger words <= 3 %, Chinese benign
<= 1 %, 1 MB < 200 ms, short memory < 50 us.

Usage: ``python benchmarks/security.py
[--split all|own|independent|fresh-a|fresh-b|fresh-d|fresh-e|public|fresh-c|fresh-g|fresh-h|fresh-i|fresh-j|fresh-k|fresh-l|fresh-m|fresh-n|fresh-o|fresh-p|fresh-q|fresh-r|fresh-s|fresh-t|fresh-u|fresh-v|fresh-w|fresh-x|fresh-y|fresh-z1|fresh-z2|fresh-aa|fresh-ab|fresh-ac|fresh-ad|fresh-ae|fresh-af|fresh-ag|fresh-ah|fresh-ai|fresh-aj|fresh-ak|fresh-al|fresh-am|fresh-an|fresh-ao|fresh-ap|fresh-aq|fresh-ar|fresh-as|fresh-at|fresh-au|fresh-av|fresh-aw|fresh-ax|fresh-ay|fresh-az|fresh-ba|fresh-bb|fresh-bc|fresh-bd|fresh-be|fresh-bf|fresh-bg|fresh-bh|fresh-bi|fresh-bj|fresh-bk|fresh-bl|fresh-bm|fresh-bn|fresh-bo|fresh-bp|fresh-bq|fresh-br|fresh-bs|fresh-bt|fresh-bu|fresh-bv|fresh-bw|fresh-bx|fresh-by|fresh-bz|fresh-ca|fresh-cb|fresh-cc|fresh-cd|fresh-ce|fresh-cf|fresh-cg|fresh-ch|fresh-ci|fresh-cj|fresh-ck|fresh-cl|fresh-cm|fresh-cn|fresh-co|fresh-cp|fresh-cq|fresh-cr|fresh-cs|fresh-ct|fresh-cu|fresh-cv|fresh-cw|fresh-cx|fresh-cy|fresh-cz|fresh-da|fresh-db|fresh-dc|fresh-dd|fresh-de|fresh-df|fresh-prefs|fresh-chat|fresh-disguised]
[--data DIR] [--misses N] [--baseline REV] [--no-semantic] [--semantic-threshold LOGIT]``

A split nobody has read (``_SEALED``) prints counts only; its rows are listed only with an explicit
``--misses N``.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from benign_memories import everyday, locomo_observations, locomo_stored_turns

from langchain_tiered_memory.security import patterns_version, scan_memory_content
from langchain_tiered_memory.security.semantic import semantic_detector
from langchain_tiered_memory.types import ScanResult

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
DEFAULT_DATA = HERE.parent.parent / "shared" / "data" / "locomo-dev"
if not DEFAULT_DATA.exists():  # a git worktree lives one level deeper than the main checkout
    DEFAULT_DATA = Path("/work/shared/data/locomo-dev")

_NAIVE = (
    ("invisible_unicode", re.compile("[\u200b-\u200d\u2060\ufeff]")),
    ("en_injection", re.compile(r"ignore (?:all )?previous instructions", re.I)),
    ("zh_injection", re.compile("忽略之前的指令")),
)

Scan = Callable[[str], bool]


def naive_scan(text: str) -> ScanResult:
    """The seed's literal three-check scanner, as a baseline."""
    for reason, rx in _NAIVE:
        if rx.search(text):
            return ScanResult(True, reason)
    return ScanResult(False)


def _jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _is_attack(row: dict[str, Any], default: bool) -> bool:
    label = row.get("label")
    if label is None:
        return default
    if isinstance(label, str):
        return label.lower() in {"attack", "malicious", "injection", "1", "true", "blocked"}
    return bool(label)


def family(row: dict[str, Any]) -> str:
    """The family a row is counted under (its own field, else derived from its tags)."""
    if row.get("family"):
        return str(row["family"])
    if "lang" in row and "evasion" in row:
        return f"{row['lang']}/{row['evasion']}"
    return "benign"


Sets = dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]]
SPLITS = ("all", "own", "independent", "fresh-a", "fresh-b", "fresh-d", "fresh-e", "public",
          "fresh-c", "fresh-g", "fresh-h", "fresh-i", "fresh-j", "fresh-k", "fresh-l", "fresh-m",
          "fresh-n", "fresh-o", "fresh-p", "fresh-q", "fresh-r", "fresh-s", "fresh-t", "fresh-u",
          "fresh-v", "fresh-w", "fresh-x", "fresh-y", "fresh-z1", "fresh-z2", "fresh-aa", "fresh-ab",
          "fresh-ac", "fresh-ad", "fresh-ae", "fresh-af", "fresh-ag", "fresh-ah", "fresh-ai",
          "fresh-aj", "fresh-ak", "fresh-al", "fresh-am", "fresh-an", "fresh-ao", "fresh-ap",
          "fresh-aq", "fresh-ar", "fresh-as", "fresh-at", "fresh-au", "fresh-av", "fresh-aw",
          "fresh-ax", "fresh-ay", "fresh-az", "fresh-ba", "fresh-bb", "fresh-bc", "fresh-bd",
          "fresh-be", "fresh-bf", "fresh-bg", "fresh-bh", "fresh-bi", "fresh-bj", "fresh-bk",
          "fresh-bl", "fresh-bm", "fresh-bn", "fresh-bo", "fresh-bp", "fresh-bq", "fresh-br",
          "fresh-bs", "fresh-bt", "fresh-bu", "fresh-bv", "fresh-bw", "fresh-bx", "fresh-by",
          "fresh-bz", "fresh-ca", "fresh-cb", "fresh-cc", "fresh-cd", "fresh-ce", "fresh-cf",
          "fresh-cg", "fresh-ch", "fresh-ci", "fresh-cj", "fresh-ck", "fresh-cl",
          "fresh-cm", "fresh-cn", "fresh-co", "fresh-cp", "fresh-cq", "fresh-cr", "fresh-cs",
          "fresh-ct", "fresh-cu", "fresh-cv", "fresh-cw", "fresh-cx", "fresh-cy", "fresh-cz",
          "fresh-da", "fresh-db", "fresh-dc", "fresh-dd", "fresh-de", "fresh-df", "fresh-prefs",
          "fresh-chat",
          "fresh-disguised")
_BLIND = ("fresh-c", "fresh-g", "fresh-h", "fresh-i", "fresh-j", "fresh-k", "fresh-l",
          "fresh-m", "fresh-n", "fresh-o", "fresh-p", "fresh-q", "fresh-r", "fresh-s", "fresh-t",
          "fresh-u", "fresh-v", "fresh-w", "fresh-x", "fresh-y", "fresh-z1", "fresh-z2",
          "fresh-aa", "fresh-ab", "fresh-ac", "fresh-ad", "fresh-ae", "fresh-af", "fresh-ag",
          "fresh-ah", "fresh-ai", "fresh-aj", "fresh-ak", "fresh-al", "fresh-am", "fresh-an",
          "fresh-ao", "fresh-ap", "fresh-aq", "fresh-ar", "fresh-as", "fresh-at", "fresh-au",
          "fresh-av", "fresh-aw", "fresh-ax", "fresh-ay", "fresh-az", "fresh-ba", "fresh-bb",
          "fresh-bc", "fresh-bd", "fresh-be", "fresh-bf", "fresh-bg", "fresh-bh", "fresh-bi",
          "fresh-bj", "fresh-bk", "fresh-bl", "fresh-bm", "fresh-bn", "fresh-bo", "fresh-bp", "fresh-bq", "fresh-br",
          "fresh-bs", "fresh-bt", "fresh-bu", "fresh-bv", "fresh-bw", "fresh-bx", "fresh-by",
          "fresh-bz", "fresh-ca", "fresh-cb", "fresh-cc", "fresh-cd", "fresh-ce", "fresh-cf",
          "fresh-cg", "fresh-ch", "fresh-ci", "fresh-cj", "fresh-ck", "fresh-cl",
          "fresh-cm", "fresh-cn", "fresh-co", "fresh-cp", "fresh-cq", "fresh-cr", "fresh-cs",
          "fresh-ct", "fresh-cu", "fresh-cv", "fresh-cw", "fresh-cx", "fresh-cy", "fresh-cz",
          "fresh-da", "fresh-db", "fresh-dc", "fresh-dd", "fresh-de", "fresh-df", "fresh-prefs",
          "fresh-chat",
          "fresh-disguised")
# Sets whose rows nobody has read (held out of the rules and both models): their tables print
# counts only, unless --misses is given.
_SEALED = ("fresh-ar", "fresh-as", "fresh-at", "fresh-ba", "fresh-bb", "fresh-bc", "fresh-bd",
           "fresh-bf", "fresh-bh", "fresh-bi", "fresh-bj", "fresh-ca", "fresh-cb", "fresh-cc",
           "fresh-cd", "fresh-ce", "fresh-cf", "fresh-cg", "fresh-ch", "fresh-ci", "fresh-cj",
           "fresh-ck", "fresh-cl", "fresh-cy", "fresh-cz", "fresh-da", "fresh-db",
           "fresh-dc", "fresh-dd", "fresh-de", "fresh-df", "fresh-disguised")
# Dev sets by other authors (or by a helper before it read the scanner): split -> file stem.
_FRESH = {"fresh-a": "security_fresh_a", "fresh-b": "security_fresh_b",
          "fresh-d": "security_fresh_d", "fresh-e": "security_fresh_e_intl"}


def labelled(attacks: str, benign: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(attacks, benign) of a pair of files: a row's own ``label`` wins over its file."""
    rows = [(r, True) for r in _jsonl(DATA / attacks)]
    rows += [(r, False) for r in _jsonl(DATA / benign)]
    return ([r for r, d in rows if _is_attack(r, d)], [r for r, d in rows if not _is_attack(r, d)])


def select_sets(split: str) -> Sets:
    """The sets one ``--split`` names; ``all`` is every set except the blind ones (c, g)."""
    if split in _BLIND:  # the blind sets: loaded only when asked for by name
        stem = f"security_{split.replace('-', '_')}"
        return {split: labelled(f"{stem}_attacks.jsonl", f"{stem}_benign.jsonl")}
    sets = load_sets()
    for name, stem in _FRESH.items():
        if split in ("all", name):
            fresh = labelled(f"{stem}_attacks.jsonl", f"{stem}_benign.jsonl")
            if fresh[0] or fresh[1]:
                sets[name] = fresh
    if split in ("all", "public"):
        public = labelled("security_public_attacks.jsonl", "security_public_benign.jsonl")
        if public[0] or public[1]:
            sets["public"] = public
    if split == "all":
        return sets
    if split == "own":
        return {k: v for k, v in sets.items() if k.startswith("own")}
    return {k: v for k, v in sets.items() if k == split}


def load_sets() -> Sets:
    """``split -> (attacks, benign)`` for own-dev, own-blind and (if present) independent."""
    sets: Sets = {}
    own_a, own_b = _jsonl(DATA / "security_attacks.jsonl"), _jsonl(DATA / "security_benign.jsonl")
    for split in ("dev", "blind", "blind2"):
        sets[f"own-{split}"] = (
            [r for r in own_a if r.get("split", "dev") == split],
            [r for r in own_b if r.get("split", "dev") == split],
        )
    own3_a = _jsonl(DATA / "security_own3_attacks.jsonl")
    own3_b = _jsonl(DATA / "security_own3_benign.jsonl")
    for split in ("dev", "blind"):
        sets[f"own3-{split}"] = (
            [r for r in own3_a if r.get("split") == split],
            [r for r in own3_b if r.get("split") == split],
        )
    independent = labelled("security_blind_attacks.jsonl", "security_blind_benign.jsonl")
    if independent[0] or independent[1]:
        sets["independent"] = independent
    return sets


def locomo_turns(data: Path) -> list[str]:
    """Every turn's text (and image caption) in the LoCoMo dev files."""
    return [t for _, t in locomo_rows(data)]


def locomo_rows(data: Path) -> list[tuple[str, str]]:
    """``(file name, turn text)`` for every turn (and image caption) in the LoCoMo dev files."""
    texts: list[tuple[str, str]] = []
    for file in sorted(data.glob("*.json")):
        doc = json.loads(file.read_text(encoding="utf-8"))
        conv = doc.get("conversation", doc)
        for key, turns in conv.items():
            if not re.fullmatch(r"session_\d+", key) or not isinstance(turns, list):
                continue
            for turn in turns:
                texts.append((file.name, turn["text"]))
                if turn.get("blip_caption"):
                    texts.append((file.name, turn["blip_caption"]))
    return texts


def _benign_table(name: str, title: str, note: str, rows: list[dict[str, Any]],
                  scanners: dict[str, Scan], misses: int) -> None:
    print(f"\n==== {title} ====")
    print(f"({note})")
    _table(name, rows, scanners, misses, attacks=False)


def _pct(hits: int, total: int) -> str:
    return f"{hits:>4}/{total:<4} {100 * hits / max(total, 1):6.1f} %"


def _table(title: str, rows: list[dict[str, Any]], scanners: dict[str, Scan], misses: int,
           *, attacks: bool) -> None:
    per: Counter[str] = Counter()
    hit: dict[str, Counter[str]] = defaultdict(Counter)
    shown: list[str] = []
    for row in rows:
        fam = family(row)
        per[fam] += 1
        for name, scan in scanners.items():
            blocked = scan(row["text"])
            hit[name][fam] += blocked
            if name == "rules" and blocked != attacks and len(shown) < misses:
                shown.append(f"  {'MISS' if attacks else 'FP'} {fam}: {row['text'][:100]!r}")
    what = "detected" if attacks else "false positives"
    print(f"\n-- {title}: {what} --")
    print(f"{'family':<28}" + "".join(f"{name:>20}" for name in scanners))
    for fam in sorted(per):
        print(f"{fam:<28}" + "".join(f"{_pct(hit[n][fam], per[fam]):>20}" for n in scanners))
    total = len(rows)
    print(f"{'ALL':<28}" + "".join(f"{_pct(sum(hit[n].values()), total):>20}" for n in scanners))
    for line in shown:
        print(line)


def _scanners(*, semantic: bool, threshold: float | None = None) -> dict[str, Scan]:
    scanners: dict[str, Scan] = {"rules": lambda t: scan_memory_content(t).blocked}
    learned = _learned()
    if learned is not None:
        scanners["rules+learned"] = lambda t: scan_memory_content(t, classifier=learned).blocked
        if learned.review is not None:  # session 13's scanner: no hit review
            unreviewed = replace(learned, review=None)
            scanners["no review"] = lambda t: scan_memory_content(t, classifier=unreviewed).blocked
    if semantic:
        detector = semantic_detector(threshold=threshold)
        scanners["rules+semantic"] = lambda t: scan_memory_content(
            t, classifier=detector, classifier_timeout=120.0).blocked
        if learned is not None:
            both = _either(learned, detector)
            scanners["rules+both"] = lambda t: scan_memory_content(
                t, classifier=both, classifier_timeout=120.0).blocked
    scanners["naive"] = lambda t: naive_scan(t).blocked
    return scanners


def _either(*classifiers: Callable[[str], Any]) -> Callable[[str], bool]:
    """A classifier that refuses when any of ``classifiers`` does (cheapest first)."""
    return lambda text: any(c(text).blocked for c in classifiers)


_OLD_SCAN = (
    "import json, sys\n"
    "from langchain_tiered_memory.security import scan_memory_content\n"
    "texts = json.load(sys.stdin)\n"
    "json.dump([scan_memory_content(t).blocked for t in texts], sys.stdout)\n"
)


def baseline_verdicts(rev: str, texts: list[str]) -> dict[str, bool]:
    """Verdicts of the package's scanner at git revision ``rev`` (a fresh interpreter)."""
    tar = subprocess.run(["git", "-C", str(HERE.parent), "archive", rev, "langchain_tiered_memory"],
                         check=True, capture_output=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
            archive.extractall(tmp, filter="data")
        out = subprocess.run([sys.executable, "-c", _OLD_SCAN], input=json.dumps(texts),
                             capture_output=True, text=True, check=True, cwd=tmp,
                             env={"PYTHONPATH": tmp, "PATH": "/usr/bin:/bin"})
    return dict(zip(texts, json.loads(out.stdout), strict=True))


def _group(split: str) -> str:
    """The author group (training-set stem) a split's rows belong to."""
    if split.startswith("own"):
        return "own"
    if split == "independent":
        return "blind"
    return split.replace("-", "_")


def _learned() -> Any:
    try:
        from langchain_tiered_memory.security import learned_classifier
    except ImportError:
        return None
    return learned_classifier()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo dev directory")
    parser.add_argument("--misses", type=int, default=None,
                        help="misses/FPs to print per table (default 15; 0 on a sealed set)")
    parser.add_argument("--baseline", help="git revision whose scanner to show beside this one")
    parser.add_argument("--split", choices=SPLITS, default="all",
                        help="which sets (all = every set but the blind ones: fresh-c, fresh-g ... fresh-z2)")
    parser.add_argument("--no-semantic", action="store_true",
                        help="leave the MiniLM semantic detector out (it loads the model)")
    parser.add_argument("--semantic-threshold", type=float,
                        help="window logit for the semantic detector (default: the bundled one)")
    args = parser.parse_args(argv)
    misses = 15 if args.misses is None else args.misses

    print(f"patterns.json version {patterns_version()}, split {args.split}")
    scanners = _scanners(semantic=not args.no_semantic, threshold=args.semantic_threshold)
    sets = select_sets(args.split)
    rows = locomo_rows(args.data)
    if args.baseline:
        texts = [r["text"] for a, b in sets.values() for r in a + b] + [t for _, t in rows]
        old = baseline_verdicts(args.baseline, sorted(set(texts)))
        scanners[f"at {args.baseline}"] = old.__getitem__
    learned = _learned()
    for split, (attacks, benign) in sets.items():
        print(f"\n==== {split}: {len(attacks)} attacks, {len(benign)} benign ====")
        if "rules+semantic" in scanners and not split.startswith("fresh"):
            print("(the semantic head was trained on this set: its column here is in-sample; "
                  "the held-out figures are the leave-one-group-out ones in semantic_head.json)")
        if learned is not None and _group(split) in learned.info.get("trained_on", ()):
            print("(the learned model was trained on this set: its rules+learned column is "
                  "in-sample; its blind figures are the held-out sets' "
                  f"({', '.join(learned.info.get('held_out', ()))}) and its out_of_author "
                  "ones in injection_model.json)")
        shown = args.misses if args.misses is not None else 0 if split in _SEALED else 15
        _table(split, attacks, scanners, shown, attacks=True)
        _table(split, benign, scanners, shown, attacks=False)
    if args.split in (*_FRESH, *_BLIND, "public", "independent"):
        return 0  # the LoCoMo turns and speed belong to the full run

    turns = [t for _, t in rows]
    print(f"\n==== LoCoMo turns: {len(turns)} from {args.data} ====")
    print("(the learned model's threshold was calibrated on 26.json: read the other files; the "
          "semantic head trained on all three, its held-out figure is the leave-one-file-out one "
          "in semantic_head.json)")
    _table("LoCoMo", [{"text": t, "family": f} for f, t in rows], scanners, misses,
           attacks=False)
    # The baseline's verdicts were computed for the sets and turns only: it sits these out.
    current = {k: v for k, v in scanners.items() if not k.startswith("at ")}
    files = sorted(args.data.glob("*.json"))
    stored = [{"text": t["text"], "family": f.name} for f in files
              for t in locomo_stored_turns(f)]
    _benign_table("LoCoMo stored", f"LoCoMo turns as stored: {len(stored)} 'Speaker: text "
                  "[image: caption]'", "as benchmarks/locomo.py writes them; the learned model "
                  "trained and calibrated on 26.json's: read the other files", stored, current,
                  misses)
    facts = [{"text": t, "family": f.name} for f in files for t in locomo_observations(f)]
    _benign_table("LoCoMo facts", f"LoCoMo facts: {len(facts)} observations, events and summary "
                  "sentences", "what a store mostly holds; the learned model trained on "
                  "26.json's: read the other files", facts, current, misses)
    rows = [{"text": r["text"], "family": f"{r['lang']} {r['kind']}"} for r in everyday("eval")]
    _benign_table("everyday", f"Everyday memories: {len(rows)} hand-written chat turns, facts, "
                  "summaries and preferences", "the eval half of data/benign_everyday_*.jsonl; "
                  "the learned model trained on the other half", rows, current, misses)

    print("\n==== speed ====")
    corpus = "\n".join(turns) or "The quick brown fox. "
    mb = (corpus * (1_000_000 // len(corpus) + 1))[:1_000_000]
    scan_memory_content("warm up")
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        result = scan_memory_content(mb)
        times.append(time.perf_counter() - t0)
    ms = 1000 * statistics.median(times)
    print(f"1 MB of LoCoMo text: median {ms:.1f} ms, min {1000 * min(times):.1f} ms "
          f"(blocked={result.blocked})")
    short = [t for t in turns if 60 <= len(t) <= 200] or ["The quick brown fox jumps. " * 3]
    docs = [" ".join(turns[i : i + 60])[:10_000] for i in range(0, min(len(turns), 1200), 60)]
    for name, scan in scanners.items():
        if name.startswith("at "):
            continue  # precomputed verdicts, nothing to time
        rounds = 1 if "semantic" in name else 5
        print(f"{name}: short memory {1e3 * _cost(scan, short[:300], rounds):.3f} ms, "
              f"10 KB document {1e3 * _cost(scan, docs, rounds):.1f} ms "
              f"(n={min(len(short), 300)} / {len(docs)}, median of {rounds} rounds)")
    print(f"anchor finder: {'pyahocorasick' if _has_automaton() else 're fallback'}")
    return 0


def _cost(scan: Scan, texts: list[str], rounds: int) -> float:
    """Median seconds per text over ``rounds`` passes."""
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for t in texts:
            scan(t)
        times.append((time.perf_counter() - t0) / max(len(texts), 1))
    return statistics.median(times)


def _has_automaton() -> bool:
    from langchain_tiered_memory.security import matcher

    return matcher._ac is not None


if __name__ == "__main__":
    sys.exit(main())
