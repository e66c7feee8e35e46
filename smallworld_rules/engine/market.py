"""The market: combos revealed as banners and badges last, and a player picking one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld_rules import rng
from smallworld_rules.actions import PickCombo
from smallworld_rules.engine.basics import _CONQUEST, _PICK, MARKET_SIZE, Log
from smallworld_rules.errors import IllegalAction
from smallworld_rules.events import COMBO_PICKED
from smallworld_rules.language import banners, borrowing, events, memory, swaps
from smallworld_rules.language import tokens as tokens_of
from smallworld_rules.state import RaceState, State

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine


def _refill_market(self: Engine, s: State) -> None:
    """Slide combos up and reveal new ones while banners and badges last (rules 1.5
    and 1.13)."""
    market, races, powers = s.market, s.race_stack, s.power_stack
    while len(market) < MARKET_SIZE and races:
        if not powers:
            if not s.power_discard:
                break
            # Ruling 38: the badges ran out, so the discards are shuffled into a new stack.
            stack = list(s.power_discard)  # rng.shuffle shuffles a list in place
            s.power_discard = ()
            s.rng = rng.shuffle(s.rng, stack)
            powers = tuple(stack)
        market = (*market, (races[0], powers[0], 0))
        races, powers = races[1:], powers[1:]
    s.market, s.race_stack, s.power_stack = market, races, powers


def _pick(self: Engine, s: State, action: PickCombo, log: Log) -> None:
    if s.phase is not _PICK:  # _need_phase's frame only to refuse
        self._need_phase(s, action, _PICK)
    if s.active == self.role_seat:
        raise IllegalAction("a role takes no combo: choose one of its drafted powers", action)
    if self._swapping and memory.get(s, "swap"):  # (legal_actions lists the badges alone)
        raise IllegalAction(
            "a combo is already picked this turn: choose its badge first (ChoosePower)", action
        )
    player = s.own_player(s.active)
    i = action.index
    if not 0 <= i < len(s.market):
        raise IllegalAction(f"there is no combo at position {i} of the market", action)
    price = self.pick_price(s, i) if self.skip_pricing else i
    if player.coins < price:
        raise IllegalAction(
            f"the combo at position {i} costs {price} coins and you have {player.coins}", action
        )
    # Rule 1.5: one coin on each combo above the chosen one (a rule file's `skip_coins` may say
    # otherwise); take the coins lying on it.
    market = list(s.market)
    for j in range(i):
        above_race, above_power, coins = market[j]
        skip = self._skip_coins(above_race, above_power) if self.skip_pricing else 1
        market[j] = (above_race, above_power, coins + skip)
    if self._banner_tokens:  # skip_tokens: tokens of their race on the banners above
        banners.skipped(self, s, tuple(market[:i]))
    race, power, collected = market.pop(i)
    s.market = tuple(market)
    player.coins += collected - price
    race_def, power_def = defs = (self.race_defs[race], self.rules.powers[power])
    wanted = race_def.tokens + race_def.conquest_tokens + power_def.tokens
    wanted += power_def.conquest_tokens
    if self._banner_tokens:
        wanted += banners.take(s, race)
    if self._own_tokens:  # a power's own tokens join the race's supply, beside its box
        wanted += tokens_of.bring(self, s, race, defs)
    tokens = min(wanted, s.box[race])  # Rule 1.1: the tray is a hard cap
    s.to_box(race, -tokens)
    s.races[race] = RaceState(race, power, s.active, False, tokens, 0, gen=s.gen)
    player.active = race
    self._refill_market(s)
    s.picked = True
    log((COMBO_PICKED, s.active, race, power, i, price, collected, tokens))
    if self._swapping and swaps.offer(self, s, race, collected):
        return  # the player chooses a badge first (ChoosePower)
    self._after_pick(s, race, collected, log)


def _after_pick(self: Engine, s: State, race: str, collected: int, log: Log) -> None:
    """The pick's triggers, then the race starts acting."""
    if self._borrowers:  # a badge borrowed from the market is lent no more once picked
        borrowing.tidy(self, s, log)
    if "pick" in self.trigger_events and events.triggers(self, s, race, "pick"):
        occasion = events.Occasion("pick", lost=collected)
        events.fire(self, s, s.own_race(race), "pick", log, occasion)
    player = s.players[s.active]
    if not player.declined and not s.race_masks.get(race) and not s.races[race].held:
        # The new race acts first, with nothing on the map or set aside (a pick trigger may
        # have placed or set aside tokens): _begin_cycle would ready nothing.
        self._reset_cycle(s)
        s.acting = race
        s.phase = _CONQUEST
        return
    first = self._acting_order(s)[0]
    self._begin_cycle(s, first, log, announce=first != race)


def _skip_coins(self: Engine, race: str, power: str) -> int:
    """Coins put on a combo a player skips: 1, or what its race's or power's file says."""
    if not self.skip_pricing:
        return 1
    said = [
        d.skip_coins
        for d in (self.race_defs[race], self.rules.powers[power])
        if d.skip_coins is not None
    ]
    return max(said) if said else 1


def pick_price(self: Engine, s: State, index: int) -> int:
    """The coins picking the combo at ``index`` of the market costs (rule 1.5)."""
    if not self.skip_pricing:
        return index
    return sum(self._skip_coins(race, power) for race, power, _ in s.market[:index])
