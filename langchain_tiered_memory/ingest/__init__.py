"""Chat-export import: parsers into one normalised form, fact extraction, extractive summaries.

Everything here is pure (no store access): parsers stream `Conversation` values out of export
files, `extract_facts` finds durable user facts in messages, `summarize` condenses a conversation.
The store-side importer builds on these.
"""

from langchain_tiered_memory.ingest.messages import (
    Conversation,
    NormalizedMessage,
    ParseProblem,
    ParseReport,
)
from langchain_tiered_memory.ingest.reader import (
    FORMATS,
    detect_format,
    file_sha256,
    iter_conversations,
    parse_file,
)

__all__ = [
    "FORMATS",
    "Conversation",
    "NormalizedMessage",
    "ParseProblem",
    "ParseReport",
    "detect_format",
    "file_sha256",
    "iter_conversations",
    "parse_file",
]
