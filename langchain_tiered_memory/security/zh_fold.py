"""Traditional Chinese folded to simplified, one character for one, so offsets hold.

Every character OpenCC folds one for one (:mod:`.zh_fold_table`, about 2,960): the detectors are
written in simplified characters, and a partial table of the ~250 they were thought to read left
紅隊, 測試 and 換成 unread in traditional text. 帳 folds to 账 (账号, 账户), the form the rules
are written in.
"""

from __future__ import annotations

import re

from .zh_fold_table import SIMPLIFIED, TRADITIONAL

__all__ = ["FOLD", "SENTENCE_END", "VIEW_FOLD", "fold_traditional"]

FOLD = str.maketrans(TRADITIONAL, SIMPLIFIED)
# The ~250 characters the scanner's views folded before the full table (``normalize``): the
# learned models hash n-grams of the ``literal`` view, so their features keep the table they
# were trained with until they are retrained; the Chinese detectors read `FOLD`.
_VIEW_TRADITIONAL = (
    "丟來個們傳僅優內別刪則剛創動務匯員問單嗎圖團執實審寫將專對導層師帳幫廢彙後從復憑"
    "憶應戲戶拋撥擇擊據擬擱擷擾斷於暫會東條棄業標樣機檔檢權歷沒洩準滙潤為無爲現環產異"
    "當發碼礎種稱範簡糾約級紹結絕給統網線總繞繫義聯聽腳與著蓋薦處號裡製複覆規視覽計訊"
    "記訪設許訴評詞詢試話該認語誤說調請論諾謂講謝證識譯議護讀變讓負責買費貼資質賬較輸"
    "轉這連運過違選遺還邊郵釋銀銷錄錢錯鎖鑰長開閱關隊際隱頁須題額類顧顯風餘駭驗體麵麼"
    "點齊價賠險補績參備註"
)
_VIEW_SIMPLIFIED = (
    "丢来个们传仅优内别删则刚创动务汇员问单吗图团执实审写将专对导层师账帮废汇后从复凭"
    "忆应戏户抛拨择击据拟搁撷扰断于暂会东条弃业标样机档检权历没泄准汇润为无为现环产异"
    "当发码础种称范简纠约级绍结绝给统网线总绕系义联听脚与着盖荐处号里制复复规视览计讯"
    "记访设许诉评词询试话该认语误说调请论诺谓讲谢证识译议护读变让负责买费贴资质账较输"
    "转这连运过违选遗还边邮释银销录钱错锁钥长开阅关队际隐页须题额类顾显风余骇验体面么"
    "点齐价赔险补绩参备注"
)
VIEW_FOLD = str.maketrans(_VIEW_TRADITIONAL, _VIEW_SIMPLIFIED)
# Where a sentence of Chinese text ends (Chinese or Western punctuation, or a line break): the
# detectors that read one sentence around a hit share it.
SENTENCE_END = re.compile(r"[。！？!?\n]")
_HAS_TRADITIONAL = re.compile("[" + TRADITIONAL + "]")


# Written Cantonese read as Mandarin (the detectors are written in Mandarin): a Hong Kong writer's
# 唔好理我個 post，直接輸出… is 不要理…; 你嘅系統提示 is 你的系统提示. Pairs first (唔好 is 不要,
# not 不好), each the length of what it replaces so that offsets hold; only in a text with a
# character written Cantonese alone uses, so 呢 and 系 of Mandarin text stay as they are.
_CANTONESE_MARK = re.compile("[唔嘅喺咗佢哋睇畀俾冇嗰揾搵攞谂嚟啲乜咩]")
_CANTONESE_PAIRS = {
    "唔好": "不要", "唔使": "不用", "唔驶": "不用", "唔洗": "不用", "唔该": "麻烦", "乜嘢": "什么",
    "咩嘢": "什么", "而家": "现在", "点解": "为何", "点样": "怎样", "边个": "哪个", "边度": "哪里",
    "呢度": "这里", "净系": "只是", "呢个": "这个", "呢段": "这段", "呢句": "这句",
    "呢条": "这条", "呢份": "这份", "呢啲": "这些", "呢篇": "这篇", "呢封": "这封", "呢张": "这张",
    "呢题": "这题", "呢行": "这行", "呢栏": "这栏", "呢部": "这部", "呢本": "这本", "呢位": "这位",
}
_PAIR = re.compile("|".join(_CANTONESE_PAIRS))
_CANTONESE = str.maketrans(
    "嘅喺咗佢哋睇畀俾冇嗰唔揾搵攞谂嚟啲",
    "的在了他们看给给没那不找找拿想来些",
)
# 係 (folded to 系) is 是 after a subject or an adverb: 你係 AI, 就係, 唔係; not 系统, 系列.
_COPULA = re.compile("(?<=[你我他她它们就都不即只也又亦仲])系(?![统列数])")


def fold_traditional(text: str) -> str:
    """``text`` with the traditional characters the detectors read folded to simplified, and
    written Cantonese to Mandarin where it is written Cantonese (one character for one)."""
    if _HAS_TRADITIONAL.search(text):
        text = text.translate(FOLD)
    if _CANTONESE_MARK.search(text) is None:
        return text
    text = _PAIR.sub(lambda m: _CANTONESE_PAIRS[m.group()], text)
    return _COPULA.sub("是", text.translate(_CANTONESE))
