"""Helpers shared by the examples: a scripted offline chat model, or a real one when configured.

The scripted model does not think; it answers from what the prompt hands it (the memory block or
the retrieved context), which is exactly what the examples want to show.
"""

from __future__ import annotations

import os
import re
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

_BULLET = re.compile(r"^- (.+)$", re.MULTILINE)


def _words(text: str) -> set[str]:
    return {w.removesuffix("s") for w in re.findall(r"\w+", text.lower())}


class ScriptedMemoryModel(BaseChatModel):
    """Replies with the remembered lines that share the most words with the question."""

    @property
    def _llm_type(self) -> str:
        return "scripted-memory"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        system = "\n".join(str(m.content) for m in messages if m.type == "system")
        question = next((str(m.content) for m in reversed(messages) if m.type == "human"), "")
        words = _words(question) - {"what", "is", "my", "do", "i", "the", "which", "doe", "am", "to", "a", "an"}
        lines = [ln for ln in _BULLET.findall(system) if not ln.startswith("**")]
        scored = sorted(lines, key=lambda ln: (-len(words & _words(ln)), len(ln)))
        if scored and words & _words(scored[0]):
            text = f"From memory: {scored[0]}"
        elif question:
            text = "Got it, I'll remember that."
        else:
            text = "Hello!"
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def chat_model() -> BaseChatModel:
    """A real chat model when ``OPENAI_API_KEY`` is set and langchain-openai is installed."""
    if os.environ.get("OPENAI_API_KEY"):
        try:
            from langchain_openai import ChatOpenAI  # type: ignore[import-not-found]

            return ChatOpenAI(model=os.environ.get("OPENAI_MODEL", "gpt-4o-mini"))  # type: ignore[no-any-return]
        except ImportError:
            pass
    return ScriptedMemoryModel()
