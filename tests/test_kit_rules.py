"""The kit's rules summaries are complete: every rule of the game's rulebook (../shared/rules/, listed here
rule by rule) is found in the summary's text in both languages (`[kit.de]` / `[kit.en]` rules of the game's
card layout, the text the kit prints)."""

import re

import pytest

from pipeline.render import layouts

# rule -> (words of the German summary, words of the English summary); each must appear (case and spacing
# ignored)
DEUTSCHLAND = {
    "paper and pencil for the points": (["Papier und Stift"], ["paper and a pencil"]),
    "place cards laid out: players plus one": (["Spieler plus eine"], ["players plus one"]),
    "nobody looks at the backs": (["ohne die Rückseiten anzusehen"], ["without looking at their backs"]),
    "six guess cards of one colour each": (["sechs Tippkarten einer Farbe"], ["six guess cards of one colour"]),
    "the starting player: most recently in another state": (
        ["zuletzt in einem anderen Bundesland"],
        ["most recently in another German state"],
    ),
    "the starting player's marker": (["Münze"], ["coin"]),
    "guess cards are played clockwise": (["im Uhrzeigersinn"], ["clockwise"]),
    "a new guess card goes below the earlier ones": (["darunter"], ["below any guess card already there"]),
    "three guess cards each per round": (["bis jeder drei gelegt hat"], ["until everyone has placed three"]),
    "W turned over is M (middle)": (["als M (Mitte)"], ["as M (middle)"]),
    "two players: different guesses": (
        ["Zu zweit müssen die Tipps einer Runde verschieden sein"],
        ["With two players the guesses of a round must differ"],
    ),
    "unplayed guess cards set aside": (
        ["Nicht gelegte Tippkarten beiseitelegen"],
        ["set aside the guess cards not played"],
    ),
    "the card's numbers: orange north-south 0-150, grey west-east 0-90": (
        ["0 ganz im Norden, 150 im Süden", "0 ganz im Westen, 90 im Osten"],
        ["0 far north, 150 south", "0 far west, 90 east"],
    ),
    "wrong guesses removed without penalty, the rest move up": (
        ["ohne Minuspunkte", "rücken auf"],
        ["no penalty", "move up"],
    ),
    "3, 2, 1 points by row, none from the fourth": (
        ["direkt unter dem Ort 3 Punkte", "ab der vierten keine"],
        ["directly under the place 3 points", "from the fourth none"],
    ),
    "the places are removed after each round": (
        ["die offenen Ortskarten kommen aus dem Spiel"],
        ["the face-up place cards leave the game"],
    ),
    "the starting player rotates to the left": (
        ["linke Nachbar des Startspielers wird neuer Startspieler"],
        ["to the left of the starting player becomes the new starting player"],
    ),
    "6 rounds with 2-3 players, 8 with 4": (
        ["6 Runden (2-3 Spieler) oder 8 Runden (4 Spieler)"],
        ["6 rounds (2-3 players) or 8 rounds (4 players)"],
    ),
    "a tie gives several winners": (["mehrere Sieger"], ["several winners"]),
    "variant: guess cards face down": (["verdeckt legen"], ["face down"]),
}

RULES = {
    "laender-toppen": {
        "each player a folded paper strip": (["Faltstreifen"], ["folded paper strip"]),
        "all cards and jokers shuffled, face down as the reserve": (["Vorrat"], ["reserve"]),
        "cards and rounds per player count": (
            ["2 Spieler 10 Karten, 6 Runden", "6 Spieler 7, 3"],
            ["2 players 10 cards, 6 rounds", "6 players 7, 3"],
        ),
        "highest value above the strip, lowest below": (["über den Streifen"], ["above the strip"]),
        "categories may stay empty": (["Nicht jede Kategorie muss belegt werden"], ["Categories may stay empty"]),
        "a joker is placed face down like a country card": (
            ["Joker wird wie eine Länderkarte verdeckt"],
            ["joker is placed face down like a country card"],
        ),
        "Antarctica's three dashed categories": (
            ["Striche bei Einwohnern, Lebenserwartung und BIP", "nicht an diese drei Kategorien"],
            ["dashes for inhabitants, life expectancy and GDP", "not be placed at these three categories"],
        ),
        "turn over left to right, above then below": (
            ["von links nach rechts", "erst oben, dann unten"],
            ["from left to right", "first above, then below"],
        ),
        "the highest (lowest) value takes the trick": (["gewinnt alle Länderkarten"], ["wins every country card"]),
        "a tie within a trick: own card only, the rest leave the game": (
            ["nur seine eigene Karte", "kommen aus dem Spiel"],
            ["only their own card", "leave the game"],
        ),
        "a joker is not part of the trick and cannot take one": (
            ["gehört nicht zum Stich", "kann keinen Stich gewinnen"],
            ["not part of the trick", "cannot win one"],
        ),
        "a joker goes onto a pile of one of its continents": (
            ["eines der beiden Kontinente"],
            ["one of the two continents"],
        ),
        "splitting: at least one card face up, at least one face down": (
            ["mindestens eine Karte offen", "mindestens eine auf den verdeckten Ablagestapel"],
            ["at least one goes face up", "at least one onto the face-down pile"],
        ),
        "a one-card trick goes where its winner likes": (["nur aus einer Karte"], ["a single card"]),
        "Russia and Türkiye count as Europe or Asia": (["Russland und die Türkei"], ["Russia and Türkiye"]),
        "new cards from the reserve each round": (["neue Karten aus dem Vorrat"], ["new cards from the reserve"]),
        "continent piles scored in the rulebook's order": (
            ["Nordamerika, Südamerika, Europa, Afrika, Asien, Ozeanien, Antarktis"],
            ["North America, South America, Europe, Africa, Asia, Oceania, Antarctica"],
        ),
        "only the majority scores a continent, a point per card": (
            ["nur, wer dort die meisten Karten hat"],
            ["only the player with the most cards"],
        ),
        "tied majorities share, rounded up": (["aufrunden"], ["rounded up"]),
        "a point per face-down card": (
            ["ein Punkt je Karte im Ablagestapel"],
            ["one point per card of the face-down pile"],
        ),
        "a final tie: the Antarctica card wins, else several winners": (
            ["Wer die Antarktis-Karte hat, gewinnt", "mehrere Sieger"],
            ["owner of the Antarctica card wins", "several winners"],
        ),
        "the faster game without splitting": (["Ohne Aufteilen"], ["without splitting"]),
    },
    "deutschland": DEUTSCHLAND,
    "region-fra": {  # Deutschland's rules, for any country's towns and map
        **{rule: words for rule, words in DEUTSCHLAND.items() if "German state" not in words[1][0]},
        "the starting player: most recently in another region": (
            ["zuletzt in einer anderen Region des Landes"],
            ["most recently in another region of the country"],
        ),
    },
    "world-game": {
        "two players: win all the opponent's cards": (
            ["Zu zweit alle Karten des Gegners"],
            ["with two players, win all of your opponent's cards"],
        ),
        "three or more: most cards when the first runs out": (
            ["wenn der erste Spieler keine mehr hat"],
            ["when the first player runs out"],
        ),
        "20 cards each, the rest put away": (["20 Karten", "der Rest kommt weg"], ["20 cards", "put the rest away"]),
        "only the top card is played": (["nur die oberste"], ["only ever play the top card"]),
        "the player left of the dealer starts": (["Links vom Geber"], ["left of the dealer"]),
        "the challenges are agreed before the game": (
            ["Aufgaben für das ganze Spiel vereinbaren"],
            ["agree on the challenges"],
        ),
        "a fact: the highest value takes the cards to the bottom": (["unter seinen Stapel"], ["bottom of their stack"]),
        "a tie: the same fact on the next cards": (
            ["derselbe Fakt der nächsten Karten"],
            ["same fact on the next cards"],
        ),
        "a challenge is set by a chosen player from their card": (
            ["stellt sie mit seiner Karte"],
            ["sets one from their card"],
        ),
        "everyone may answer": (["alle dürfen antworten"], ["everyone may answer"]),
        "two continents: both named": (["auf zwei Kontinenten, beide"], ["two continents needs both"]),
        "flag: name, capital and number covered": (["Name, Hauptstadt, Nummer"], ["name, capital, number"]),
        "location: point to it on the map or say its number": (["Nummer nennen"], ["say its number"]),
        "capital: of several, one is enough": (["bei mehreren genügt eine"], ["of several, one is enough"]),
        "the first correct answer wins, else the setter": (
            ["sonst der Aufgabensteller"],
            ["else the player who set it"],
        ),
        "the winner takes the caller's, setter's and wrong answers' cards": (
            ["des Rufers, des Stellers und jeder falschen Antwort"],
            ["the caller, the setter and every wrong answer"],
        ),
        "younger children: a challenge of their own": (["seine eigene Aufgabe"], ["their own challenge"]),
        "reverse challenges": (["die anderen nennen das Land"], ["the others name the country"]),
    },
}


def _summary(game: str, lang: str) -> str:
    rules = layouts.load(game).data["kit"][lang]["rules"]
    return " ".join(re.sub(r"<[^>]+>", "", " ".join(rules)).split()).casefold()


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("game", sorted(RULES))
def test_the_rules_summary_states_every_rule_of_the_rulebook(game, lang):
    text = _summary(game, lang)
    missing = [
        rule
        for rule, words in RULES[game].items()
        if not all(" ".join(w.split()).casefold() in text for w in words[lang == "en"])
    ]
    assert not missing, f"{game} [kit.{lang}] rules miss: {missing}"
