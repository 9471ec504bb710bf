"""Chat-export import: parsers into one normalised form, fact extraction, extractive summaries.

Everything here is pure (no store access): parsers stream `Conversation` values out of export
files, `ingest.formats` is the registry of export formats (name, aliases, sniffer, converter),
`extract_facts` finds durable user facts in messages, `summarize` condenses a conversation;
the ``*_llm`` variants use any LangChain chat model and fall back to the heuristics. The store-side
importer builds on these.
"""

from langchain_tiered_memory.ingest.extraction import (
    FACT_KINDS,
    ExtractedFact,
    extract_facts,
    split_sentences,
)
from langchain_tiered_memory.ingest.formats import ExportFormat, ExportSource, FormatRegistry
from langchain_tiered_memory.ingest.llm import (
    aextract_facts_llm,
    asummarize_llm,
    extract_facts_llm,
    summarize_llm,
)
from langchain_tiered_memory.ingest.messages import (
    Conversation,
    NormalizedMessage,
    ParseProblem,
    ParseReport,
)
from langchain_tiered_memory.ingest.reader import (
    FORMAT_REGISTRY,
    FORMATS,
    detect_format,
    file_sha256,
    format_names,
    iter_conversations,
    parse_file,
    register_format,
)
from langchain_tiered_memory.ingest.summary import extract_entities, score_importance, summarize

__all__ = [
    "FACT_KINDS",
    "FORMATS",
    "FORMAT_REGISTRY",
    "Conversation",
    "ExportFormat",
    "ExportSource",
    "ExtractedFact",
    "FormatRegistry",
    "NormalizedMessage",
    "ParseProblem",
    "ParseReport",
    "aextract_facts_llm",
    "asummarize_llm",
    "detect_format",
    "extract_entities",
    "extract_facts",
    "extract_facts_llm",
    "file_sha256",
    "format_names",
    "iter_conversations",
    "parse_file",
    "register_format",
    "score_importance",
    "split_sentences",
    "summarize",
    "summarize_llm",
]
