#!/bin/sh
# A short sample Risk Legacy campaign played through the tracker: setup, two games, rewards,
# one refused move, status, a printable sheet, and the reference sheets as this world stands.
# Run from the repository root with scarbook on PATH (the README's first command does this).
set -eu
mkdir -p build
export SCARBOOK_CAMPAIGN=build/sample-campaign.yaml
rm -f "$SCARBOOK_CAMPAIGN" "$SCARBOOK_CAMPAIGN.bak"

scarbook campaign new "$SCARBOOK_CAMPAIGN" --game risk-legacy --player Ann --player Bob --player Cat --name "Sample world"

echo "== before the first game: one starting power per faction, twelve coins"
scarbook campaign place first-game-power die-mechaniker --name die-mechaniker-fortified-hq
scarbook campaign place first-game-power enclave-of-the-bear --name enclave-of-the-bear-first-strike
scarbook campaign place first-game-power imperial-balkania --name imperial-balkania-round-up
scarbook campaign place first-game-power khan-industries --name khan-industries-hq-reinforcements
scarbook campaign place first-game-power saharan-republic --name saharan-republic-anytime-maneuver
for card in alaska alaska brazil brazil japan japan egypt egypt iceland peru india china; do
  scarbook campaign place coin "$card"
done

echo "== game 1"
# where each started (the faction cards record it) and how the players sit, clockwise (kept for later games)
scarbook campaign game start --play Ann=die-mechaniker --play Bob=khan-industries --play Cat=saharan-republic \
  --start Ann=peru --start Bob=egypt --start Cat=china --seating Ann,Bob,Cat
scarbook campaign place bunker russia --by Cat   # a scar card, played during the game
scarbook campaign game end --winner Ann --held-on Bob --held-on Cat
scarbook campaign place major-city great-britain --by Ann --name "Sunny Glasgow"
scarbook campaign place minor-city brazil --by Bob --name Bahia
scarbook campaign place coin japan --by Cat

echo "== game 2"
scarbook campaign game start --play Ann=die-mechaniker --play Bob=enclave-of-the-bear --play Cat=imperial-balkania \
  --start Ann=great-britain --start Bob=egypt --start Cat=china
scarbook campaign game end --winner Bob --held-on Ann --eliminated Cat
scarbook campaign place continent-name south-america --by Bob --name "Spread it Wide"
echo "-- a refused move (a territory holds one city):"
if scarbook campaign place minor-city great-britain --by Ann --name Leeds; then
  echo "unexpected: the tracker accepted an illegal move" >&2
  exit 1
fi
scarbook campaign place minor-city scandinavia --by Ann --name Oslo

echo "== where the campaign stands"
scarbook campaign status
scarbook campaign check
scarbook campaign sheet --out build/sample-campaign.pdf
scarbook build risk-legacy --campaign "$SCARBOOK_CAMPAIGN" --out build/sample-campaign
echo "sample campaign: build/sample-campaign.yaml, build/sample-campaign.pdf, build/sample-campaign/risk-legacy/"
