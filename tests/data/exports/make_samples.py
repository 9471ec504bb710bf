import json
chatgpt = [
  {
    "title": "Coffee and dark mode",
    "create_time": 1714550400.0,
    "update_time": 1714550700.0,
    "conversation_id": "conv-dana-1",
    "current_node": "n6",
    "mapping": {
      "root": {"id": "root", "message": None, "parent": None, "children": ["n0"]},
      "n0": {"id": "n0", "parent": "root", "children": ["n1"],
             "message": {"id": "n0", "author": {"role": "system"}, "create_time": None,
                         "content": {"content_type": "text", "parts": [""]},
                         "metadata": {"is_visually_hidden_from_conversation": True}}},
      "n1": {"id": "n1", "parent": "n0", "children": ["n2", "n2b"],
             "message": {"id": "n1", "author": {"role": "user"}, "create_time": 1714550400.5,
                         "content": {"content_type": "text",
                                     "parts": ["Hi! My name is Dana and I prefer dark roast coffee."]}}},
      "n2b": {"id": "n2b", "parent": "n1", "children": [],
              "message": {"id": "n2b", "author": {"role": "assistant"}, "create_time": 1714550401.0,
                          "content": {"content_type": "text", "parts": ["ABANDONED BRANCH answer"]}}},
      "n2": {"id": "n2", "parent": "n1", "children": ["n3"],
             "message": {"id": "n2", "author": {"role": "assistant"}, "create_time": 1714550402.0,
                         "content": {"content_type": "text",
                                     "parts": ["Nice to meet you, Dana! Dark roast it is."]}}},
      "n3": {"id": "n3", "parent": "n2", "children": ["n4"],
             "message": {"id": "n3", "author": {"role": "user"}, "create_time": 1714550500.0,
                         "content": {"content_type": "multimodal_text",
                                     "parts": [{"content_type": "image_asset_pointer",
                                                "asset_pointer": "file-service://file-abc",
                                                "width": 800, "height": 600},
                                               "Here is my desk setup. I live in Lisbon."]}}},
      "n4": {"id": "n4", "parent": "n3", "children": ["n5"],
             "message": {"id": "n4", "author": {"role": "tool", "name": "python"},
                         "create_time": 1714550550.0,
                         "content": {"content_type": "execution_output", "text": "42"}}},
      "n5": {"id": "n5", "parent": "n4", "children": ["n6"],
             "message": {"id": "n5", "author": {"role": "assistant"}, "create_time": None,
                         "content": {"content_type": "thoughts", "thoughts": [{"summary": "x", "content": "hidden"}]}}},
      "n6": {"id": "n6", "parent": "n5", "children": [],
             "message": {"id": "n6", "author": {"role": "assistant"}, "create_time": 1714550600.0,
                         "content": {"content_type": "text", "parts": ["Lisbon is lovely. Nice setup!"]}}}
    }
  },
  {
    "title": None,
    "create_time": 1714637000,
    "id": "conv-2",
    "mapping": {
      "a": {"id": "a", "parent": None, "children": ["b"], "message": None},
      "b": {"id": "b", "parent": "a", "children": ["c"],
            "message": {"author": {"role": "user"}, "create_time": 1714637001,
                        "content": {"content_type": "text", "parts": ["Can you explain Rust lifetimes?"]}}},
      "c": {"id": "c", "parent": "b", "children": [],
            "message": {"author": {"role": "assistant"},
                        "content": {"content_type": "text", "parts": ["Lifetimes describe how long references stay valid."]}}}
    }
  }
]
json.dump(chatgpt, open("chatgpt_conversations.json", "w"), indent=1)

claude = [
  {"uuid": "c-1", "name": "Trip planning", "created_at": "2024-05-02T09:00:00.123456Z",
   "chat_messages": [
     {"uuid": "m1", "sender": "human", "text": "I'm allergic to peanuts, keep that in mind for restaurant tips.",
      "content": [{"type": "text", "text": "I'm allergic to peanuts, keep that in mind for restaurant tips."}],
      "created_at": "2024-05-02T09:00:01.000000Z", "attachments": [], "files": []},
     {"uuid": "m2", "sender": "assistant", "text": "",
      "content": [{"type": "text", "text": "Noted. I will avoid places known for peanut sauces."},
                  {"type": "tool_use", "name": "search", "input": {"q": "x"}}],
      "created_at": "2024-05-02T09:00:05Z"}
   ]},
  {"uuid": "c-2", "name": "", "created_at": "2024-05-03T10:00:00Z", "chat_messages": []}
]
json.dump(claude, open("claude_export.json", "w"), indent=1, ensure_ascii=False)

gemini_api = {
  "systemInstruction": {"parts": [{"text": "You are a helpful assistant."}]},
  "contents": [
    {"role": "user", "parts": [{"text": "I work at Globex and I want to learn Go this year."}]},
    {"role": "model", "parts": [{"text": "Great goal. Start with the Tour of Go."}]},
    {"role": "user", "parts": [{"inline_data": {"mime_type": "image/png", "data": "iVBOR"}},
                               {"text": "What is in this picture?"}]}
  ]
}
json.dump(gemini_api, open("gemini_api.json", "w"), indent=1)

takeout = [
  {"header": "Gemini Apps", "title": "Prompted 我叫李雷，我住在上海。", "time": "2024-06-01T08:00:00.000Z",
   "products": ["Gemini Apps"],
   "safeHtmlItem": [{"html": "<p>你好，李雷！上海是个&amp;好地方。</p>"}]},
  {"header": "Gemini Apps", "title": "Prompted what is a monad", "time": "2024-06-01T07:00:00.000Z",
   "products": ["Gemini Apps"], "safeHtmlItem": [{"html": "<p>A monad is a <b>design pattern</b>.</p>"}]}
]
json.dump(takeout, open("gemini_takeout.json", "w"), indent=1, ensure_ascii=False)

messages = {"id": "generic-1", "title": "API log",
  "messages": [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": [{"type": "text", "text": "We'll use PostgreSQL for the database."},
                                  {"type": "image_url", "image_url": {"url": "http://x/y.png"}}]},
    {"role": "assistant", "content": "OK, PostgreSQL it is."},
    {"role": "tool", "content": "{\"ok\": true}"}
  ]}
json.dump(messages, open("messages.json", "w"), indent=1)

with open("messages.jsonl", "w") as f:
    for row in [
        {"conversation_id": "s1", "role": "user", "content": "I love hiking in the Alps.", "timestamp": "2024-01-01T10:00:00Z"},
        {"conversation_id": "s1", "role": "assistant", "content": "The Alps are great for that."},
        {"conversation_id": "s2", "role": "user", "content": "我不吃辣。"},
        {"conversation_id": "s2", "role": "assistant", "content": "好的，记住了。"},
    ]:
        f.write(json.dumps(row, ensure_ascii=False) + "\n")

with open("conversations.jsonl", "w") as f:
    f.write(json.dumps({"id": "L1", "messages": [{"role": "user", "content": "I decided to switch to Neovim."},
                                                 {"role": "assistant", "content": "Enjoy!"}]}) + "\n")
    f.write(json.dumps({"id": "L2", "conversations": [{"from": "human", "value": "my goal is to run a marathon"},
                                                      {"from": "gpt", "value": "Start slowly."}]}) + "\n")

open("transcript.txt", "w").write("""Title: Morning chat
User: Hello there.
I'm a data engineer and I live in Toronto.
Assistant: Hi! Toronto is a great city.
Here are some tips:
- walk by the lake
User: thanks

---
我：我叫王芳，我喜欢喝绿茶。
助手: 你好王芳！
用户：我的目标是明年学会游泳。
""")

# Broken files.
full = json.dumps(chatgpt, indent=1)
cut = full.index('"conv-2"')
open("broken_truncated.json", "w").write(full[:cut + 20])
broken = [chatgpt[0], {"title": "bad", "id": "bad-mapping", "mapping": ["not", "a", "dict"]}, "just a string",
          {"title": "no mapping", "id": "no-mapping"}, chatgpt[1]]
json.dump(broken, open("broken_mapping.json", "w"), indent=1)
wrong = {"messages": [{"role": 7, "content": "x"}, {"role": "user", "content": 12345},
                      {"role": "user", "content": None}, "not a message",
                      {"role": "user", "content": "I hate cilantro."}, {"role": "assistant", "content": ["ok", 3]}]}
json.dump(wrong, open("broken_wrong_types.json", "w"), indent=1)
open("broken_empty.json", "w").write("")
open("broken_lines.jsonl", "w").write(
    json.dumps({"role": "user", "content": "I prefer tea."}) + "\n" + '{"role": "assistant", "content": "tr\n'
    + json.dumps({"role": "assistant", "content": "Tea it is."}) + "\n")
