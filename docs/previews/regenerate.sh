#!/bin/sh
# Regenerate docs/previews/*.png from the latest decks (needs the snapshot mirror and poppler's pdftoppm).
# Cards: one-up PDFs at 80 dpi, cropped to the trim (3 mm bleed = 9 px). Accessories: first page at 60 dpi.
set -e
cd "$(dirname "$0")/../.."
export GEODECK_MIRROR="${GEODECK_MIRROR:-../shared/snapshots}"
tmp=$(mktemp -d)
card() {  # game, card index (0-based), side (1 front, 2 back), name
  pdftoppm -png -r 80 -x 9 -y 9 -W 199 -H 278 -singlefile -f $(($2 * 2 + $3)) -l $(($2 * 2 + $3)) \
    "$tmp/$1.pdf" "docs/previews/$4"
}
for game in laender-toppen deutschland world-game; do
  .venv/bin/geodeck print "$game" --layout one-up --bleed 3 --out "$tmp/$game.pdf" >/dev/null 2>&1
  .venv/bin/geodeck print "$game" --what accessories --out "$tmp/$game-accessories.pdf" >/dev/null 2>&1
done
card laender-toppen 25 1 laender-toppen-country-front
card laender-toppen 25 2 laender-toppen-country-back
card laender-toppen 119 1 laender-toppen-antarctica-front
card laender-toppen 120 1 laender-toppen-joker-front
card deutschland 64 1 deutschland-place-front
card deutschland 64 2 deutschland-place-back
card deutschland 74 1 deutschland-city-state-front
card deutschland 98 1 deutschland-guess-front
card deutschland 98 2 deutschland-guess-back
card world-game 50 1 world-game-country-front
card world-game 50 2 world-game-country-back
pdftoppm -png -r 60 -singlefile "$tmp/deutschland-accessories.pdf" docs/previews/deutschland-map
pdftoppm -png -r 60 -singlefile "$tmp/laender-toppen-accessories.pdf" docs/previews/laender-toppen-strips
.venv/bin/geodeck print world-game --what accessories --paper a3 --out "$tmp/world-a3.pdf" >/dev/null 2>&1
pdftoppm -png -r 60 -singlefile "$tmp/world-a3.pdf" docs/previews/world-game-map
rm -r "$tmp"
