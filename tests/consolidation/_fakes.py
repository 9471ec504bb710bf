"""Scripted chat models for the consolidation and history tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field


class ScriptedChat(BaseChatModel):
    """Answers with ``reply(messages)`` (or a fixed text), after ``delay`` seconds; records inputs."""

    text: str = "ok"
    delay: float = 0.0
    fail: bool = False
    reply: Callable[[Sequence[BaseMessage]], str] | None = None
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    lock: Any = None

    def model_post_init(self, __context: Any) -> None:
        self.lock = threading.Lock()

    @property
    def _llm_type(self) -> str:
        return "scripted-chat"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        with self.lock:
            self.calls.append(list(messages))
        if self.delay:
            time.sleep(self.delay)
        if self.fail:
            raise RuntimeError("model is down")
        text = self.reply(messages) if self.reply is not None else self.text
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])
