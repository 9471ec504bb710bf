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


def fold_traditional(text: str) -> str:
    """``text`` with the traditional characters the detectors read folded to simplified."""
    return text.translate(FOLD) if _HAS_TRADITIONAL.search(text) else text
