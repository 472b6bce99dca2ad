"""Builds the two fonts the PDF reports embed.

- DejaVuSans-Subset.ttf: DejaVu Sans (Bitstream Vera licence + public-domain DejaVu changes,
  reports/fonts/LICENSE-DejaVu.txt) from Debian's fonts-dejavu-core, subset to Basic Latin,
  Latin-1, Latin Extended-A, Greek, Cyrillic and general punctuation: every European phrase.
- NotoSansJP-Subset.ttf: Noto Sans CJK JP Regular (SIL Open Font License 1.1,
  reports/fonts/LICENSE-Noto-CJK.txt) from Debian's fonts-noto-cjk, subset to kana, CJK and
  full-width punctuation and every other character of reports/src/i18n.rs (the kanji). Its CFF
  outlines are converted to TrueType quadratic outlines (fontTools cu2qu, as in fontTools'
  otf2ttf snippet) so both fonts embed the same way, as CIDFontType2 with an identity map.

The PDF writer takes each character from the first font that has it.

Run from the repository root with fontTools installed (pip install fonttools):
    python3 reports/fonts/make_subset.py
"""
import re
from fontTools.ttLib import TTCollection, TTFont, newTable
from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
OUT = "reports/fonts/NotoSansJP-Subset.ttf"
EUROPEAN = [(0x20, 0x7E), (0xA0, 0x17F), (0x370, 0x3FF), (0x400, 0x4FF), (0x2000, 0x206F),
            (0x20AC, 0x20AC), (0x2190, 0x2193), (0x2212, 0x2212), (0x2264, 0x2265)]
JAPANESE = [(0x3000, 0x303F), (0x3040, 0x30FF), (0xFF01, 0xFF5E)]

text = open("reports/src/i18n.rs", encoding="utf-8").read()
phrases = "".join(re.findall(r'"([^"]*)"', text))


def plain_options():
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    return options


dejavu = TTFont(DEJAVU)
european = {cp for lo, hi in EUROPEAN for cp in range(lo, hi + 1)}
subsetter = subset.Subsetter(plain_options())
subsetter.populate(unicodes=european)
subsetter.subset(dejavu)
dejavu.save("reports/fonts/DejaVuSans-Subset.ttf")
covered = set(dejavu.getBestCmap())
print("DejaVu", len(dejavu.getGlyphOrder()), "glyphs")

codepoints = {cp for lo, hi in JAPANESE for cp in range(lo, hi + 1)} | {ord(c) for c in phrases if ord(c) not in covered}

collection = TTCollection(SOURCE)
font = next(f for f in collection.fonts if "JP" in f["name"].getDebugName(1) and "Mono" not in f["name"].getDebugName(1))
options = plain_options()
options.desubroutinize = True
subsetter = subset.Subsetter(options)
subsetter.populate(unicodes=codepoints)
subsetter.subset(font)

# CFF → glyf (quadratic), as in fontTools' otf2ttf snippet.
glyph_order = font.getGlyphOrder()
glyph_set = font.getGlyphSet()
glyphs = {}
for name in glyph_order:
    pen = TTGlyphPen(glyph_set)
    glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
    glyphs[name] = pen.glyph()
font["loca"] = newTable("loca")
font["glyf"] = glyf = newTable("glyf")
glyf.glyphOrder = glyph_order
glyf.glyphs = glyphs
del font["CFF "]
if "VORG" in font:
    del font["VORG"]
glyf.compile(font)
font["maxp"] = maxp = newTable("maxp")
maxp.tableVersion = 0x00010000
for attr in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
             "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
    setattr(maxp, attr, 0)
maxp.maxZones = 1
maxp.recalc(font)
font["head"].indexToLocFormat = 0
font["head"].glyphDataFormat = 0
font["post"].formatType = 3.0
font.sfntVersion = "\x00\x01\x00\x00"
font.save(OUT)
print(OUT, len(glyph_order), "glyphs")
