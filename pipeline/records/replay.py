"""`geodeck replay`: a record replayed move by move against the rules of its game, with the deck it names."""

from pathlib import Path

from pipeline.decks import published
from pipeline.decks.files import content_hash
from pipeline.errors import GeodeckError
from pipeline.framework.core import CHANCE as CHANCE_NODE
from pipeline.framework.core import IllegalAction
from pipeline.framework.definition import GameDefinition
from pipeline.records import ports
from pipeline.records.record import CHANCE, Record, RecordError


def deck_of(
    definition: GameDefinition, record: Record, deck_file: Path | None = None, source: str = "the record"
) -> dict:
    """The deck the record was played with (a deck of `definition`, the game the record names): `deck_file`,
    else the published version it names; another content hash is refused."""
    if deck_file:
        deck, where = published.read(deck_file, definition), str(deck_file)
    elif record.deck.version is None:
        raise RecordError(f"{source} names no deck version; pass the deck it was played with (--deck FILE)")
    else:
        try:
            path, deck = published.deck(definition, record.deck.version)
        except GeodeckError as exc:
            raise RecordError(
                f"{source}: no published deck for it ({exc}); pass the deck it was played with (--deck FILE)"
            ) from exc
        where = str(path)
    found = content_hash(deck)
    if found != record.deck.content_hash:
        raise RecordError(
            f"{source} was played with the {record.game} deck {record.deck.version} of content hash "
            f"{record.deck.content_hash[:12]}…, {where} has {found[:12]}…: replay it with that deck (--deck FILE)"
        )
    return deck


def replay(definition: GameDefinition, record: Record, deck: dict, source: str = "the record", game=None):
    """The state after every move of `record`, each checked against the rules; a RecordError names the first
    move that breaks one (move numbers count from 1), or a result that differs from the record's. Pass `game`
    (the engine's game of `deck`) when replaying many records of one deck: it is used when its options are the
    record's, and the record's are made from the deck otherwise. `definition` is the game the record names."""
    notation = ports.notation(definition)
    if game is None or game.options() != record.options:
        game = _game(definition, deck, record, source)
    if len(record.seats) != game.players:
        raise RecordError(f"{source}: {len(record.seats)} seats for a {game.players}-player game")
    levels = [f"bot:{level}" for level in definition.engine.BOTS]
    for number, seat in enumerate(record.seats):
        if seat.plays != "human" and seat.plays not in levels:
            raise RecordError(f"{source}: seats.{number}.plays: {seat.plays!r} is not human or {', '.join(levels)}")
    state = game.initial_state(_order(notation.card_ids(game), record.deal, source))
    names = [seat.name for seat in record.seats]
    for number, move in enumerate(record.moves, 1):
        if state.is_terminal():
            raise RecordError(f"{source}: move {number}: the game ended with move {number - 1}")
        player = state.current_player()
        expected = CHANCE if player == CHANCE_NODE else player
        if move.player != expected:
            raise RecordError(
                f"{source}: move {number}: it is {_who(expected, names)}'s turn, not {_who(move.player, names)}'s"
            )
        where = f"{source}: move {number} ({_who(expected, names)}, {move.move!r})"
        try:
            action = notation.read(state, move.move)
        except ValueError as exc:
            raise RecordError(f"{where}: {exc}") from exc
        try:
            state.apply_action(action)
        except IllegalAction as exc:  # the engine names the rule and leaves the state unchanged
            raise RecordError(f"{where} is illegal: {exc}") from exc
    choose = ports.choose(notation)
    for choice in record.choices:
        if choose is None:
            raise RecordError(f"{source}: choice {choice!r}: {record.game} has no choices besides its moves")
        try:
            choose(state, choice)
        except (ValueError, IllegalAction) as exc:
            raise RecordError(f"{source}: choice {choice!r}: {exc}") from exc
    _check_result(record, state, source)
    return state


def _game(definition, deck: dict, record: Record, source: str):
    try:
        return definition.engine.Game.from_deck(deck, **record.options)
    except (TypeError, GeodeckError) as exc:
        raise RecordError(f"{source}: options {record.options} do not make a {record.game} game ({exc})") from exc


def summary(record: Record, state) -> dict:
    """What `geodeck replay` prints: the game, the deck, how far it went, each seat's score."""
    scores, winners = state.scores(), state.winners()
    return {
        "game": record.game,
        "deck": record.deck.model_dump(),
        "moves": len(record.moves),
        "finished": state.is_terminal(),
        "seats": [
            {"name": seat.name, "plays": seat.plays, "score": scores[p], "winner": p in winners}
            for p, seat in enumerate(record.seats)
        ],
    }


def _order(ids: tuple[str, ...], deal: list[str], source: str) -> list[int]:
    index = {card: i for i, card in enumerate(ids)}
    unknown = [card for card in deal if card not in index]
    if unknown:
        raise RecordError(f"{source}: unknown card {unknown[0]!r} in the deal (not a dealt card of this deck)")
    if len(deal) != len(ids) or len(set(deal)) != len(deal):
        missing = sorted(set(ids) - set(deal))
        raise RecordError(
            f"{source}: the deal must list each of the {len(ids)} cards once "
            f"({len(deal)} listed{', missing ' + missing[0] if missing else ''})"
        )
    return [index[card] for card in deal]


def _who(player: int | str, names: list[str]) -> str:
    if isinstance(player, int) and 0 <= player < len(names):
        return names[player]
    return str(player)


def _check_result(record: Record, state, source: str) -> None:
    if record.finished != state.is_terminal():
        ended = "is over" if state.is_terminal() else "is not over"
        raise RecordError(
            f"{source}: the record says finished={str(record.finished).lower()}, but the game {ended} after its moves"
        )
    if list(record.scores) != list(state.scores()) or list(record.winners) != list(state.winners()):
        raise RecordError(
            f"{source}: the record's scores {record.scores} (winners {record.winners}) differ from the "
            f"replayed {state.scores()} (winners {state.winners()})"
        )
    if record.moves_hash is not None and record.moves_hash != record.moves_digest():
        raise RecordError(
            f"{source}: its moves_hash {record.moves_hash[:12]}… is not the hash of its seed, deal, moves and "
            f"choices ({record.moves_digest()[:12]}…): the record was changed after it was written; replay the "
            "record as geodeck wrote it"
        )
