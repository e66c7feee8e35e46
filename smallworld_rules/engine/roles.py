"""A role (an expansion's seat that plays no combo): its set-up, drafted powers,
purchases, and what happens after every turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from smallworld_rules.actions import Action, ChoosePower, Purchase
from smallworld_rules.engine.basics import _CONQUEST, _PICK, Log, _shared
from smallworld_rules.engine.context import new_context
from smallworld_rules.errors import IllegalAction
from smallworld_rules.events import EXCHANGED, POWER_CHOSEN, TOKEN_BOUGHT, TOKENS_TO_ZONE
from smallworld_rules.language import memory, swaps
from smallworld_rules.ruledefs import RoleDef
from smallworld_rules.state import SOUL, RaceState, State, without

if TYPE_CHECKING:
    from smallworld_rules.engine.core import Engine

#: The shared purchase of a token (made once: the listing hands it out as it is).
_TOKEN_PURCHASE = _shared(Purchase, "token", None)
#: The last reserve listed (the very tuple: a reserve is replaced when a power leaves it) and
#: the shared purchase of each of its powers, in its order: no look-up per power while the
#: reserve stays the same from one position to the next.
_reserve_purchases: tuple[tuple[str, ...], tuple[Action, ...]] = ((), ())


def _set_up_role(self: Engine, s: State, role: RoleDef) -> None:
    """The role's seat: its tokens (the rest in reserve), coins, and drafted powers, of
    which it chooses at once (rule 4.1)."""
    race = role.race.id
    hand = role.start_hand
    s.box = {**s.box, race: self.role_supply - hand}
    s.races[race] = RaceState(race, None, self.role_seat, False, hand, 0, gen=s.gen)
    player = s.own_player(self.role_seat)
    player.active = race
    player.coins = self.role_coins
    if role.draft is None:
        return
    count, _, excluded = role.draft
    # Drawn from the badge stack once the market is out; excluded badges stay there.
    drawn = [p for p in s.power_stack if p not in excluded][:count]
    s.power_stack = tuple(p for p in s.power_stack if p not in drawn)
    s.role_reserve = tuple(drawn)
    if drawn:
        s.active = self.role_seat  # the choice comes before the first turn


def price(self: Engine, s: State, item: str) -> int | None:
    """What the role pays now for a purchase of ``item`` (``None``: it cannot buy one)."""
    if self.role is None or self.role_race is None or item not in self.role.buys:
        return None
    return max(0, self.role.buys[item](new_context(self, s, self.role_race)))


def purchase_problem(
    self: Engine, s: State, item: str, power: str | None, prices: dict[Any, int] | None = None
) -> str | None:
    """Why the role may not make that purchase now, or ``None`` (``prices``: the prices
    worked out so far for this position, by price expression, filled in as they are)."""
    role = self.role
    if role is None or not role.buys:
        return "no role of this game makes purchases"
    if s.active != self.role_seat or s.phase is not _CONQUEST:
        return f"the {role.name} buys in his turn, before conquering"
    if s.acting != self.role_race or s.conquered:
        return "purchases come before the first conquest of the turn (rule 4.3)"
    if self.role_purchases and s.purchases >= self.role_purchases:
        return f"at most {self.role_purchases} purchase(s) a turn (option)"
    price = None if prices is None else prices.get(role.buys.get(item))
    if price is None:
        price = self.price(s, item)
        if price is None:
            return f"the {role.name} buys {', '.join(sorted(role.buys))}, not {item!r}"
        if prices is not None:
            prices[role.buys[item]] = price
    if item == "token":
        if power is not None:
            return "a token purchase names no power"
        if not s.box[self.role_race or ""]:
            return f"no {role.race.name} token is left in the reserve"
    elif power not in s.role_reserve:
        reserve = ", ".join(s.role_reserve) or "none"
        return f"{power!r} is not one of the reserved powers ({reserve})"
    coins = s.players[self.role_seat].coins
    if coins < price:
        return f"it costs {price} coins and you have {coins}"
    return None


def _purchases(self: Engine, s: State) -> list[Action]:
    """The purchases ``purchase_problem`` allows now, in its order (the token, then each
    reserved power): its checks that name no item made once, each price expression worked
    out once (a price names no power), no message written for what is refused; the actions
    shared like the others legal_actions hands out."""
    role, race = self.role, self.role_race
    if (
        role is None
        or s.conquered
        or not role.buys
        or s.active != self.role_seat
        or s.phase is not _CONQUEST
        or s.acting != race
        or (self.role_purchases and s.purchases >= self.role_purchases)
    ):
        return []
    buys = role.buys
    coins = s.players[self.role_seat].coins
    acts: list[Action] = []
    ctx = None
    token = buys.get("token")
    if token is not None and s.box[race or ""]:
        ctx = new_context(self, s, race or "")
        if coins >= max(0, token(ctx)):
            acts.append(_TOKEN_PURCHASE)
    power = buys.get("power")
    if power is not None and s.role_reserve:
        if power is not token or ctx is None:  # else priced just above, or not at all
            ctx = ctx or new_context(self, s, race or "")
            affordable = coins >= max(0, power(ctx))
        else:
            affordable = bool(acts)
        if affordable:
            global _reserve_purchases
            reserve = s.role_reserve
            kept, purchases = _reserve_purchases
            if kept is not reserve:
                purchases = tuple([_shared(Purchase, "power", p) for p in reserve])
                _reserve_purchases = (reserve, purchases)
            acts += purchases
    return acts


def _purchase(self: Engine, s: State, action: Purchase, log: Log) -> None:
    problem = self.purchase_problem(s, action.item, action.power)
    if problem:
        raise IllegalAction(problem, action)
    price = self.price(s, action.item)
    assert price is not None and self.role_race is not None
    s.own_player(self.role_seat).coins -= price
    s.purchases += 1
    if action.item == "token":
        s.to_box(self.role_race, -1)
        s.own_race(self.role_race).hand += 1
        log((TOKEN_BOUGHT, self.role_seat, self.role_race, price))
    else:
        assert action.power is not None
        s.role_reserve = without(s.role_reserve, action.power)
        s.role_powers = (*s.role_powers, action.power)
        log((POWER_CHOSEN, self.role_seat, action.power, price))


def _choose_power(self: Engine, s: State, action: ChoosePower, log: Log) -> None:
    self._need_phase(s, action, _PICK)
    if self._swapping and memory.get(s, "swap"):  # a badge swapped as a combo is picked
        swaps.choose(self, s, action, log)
        return
    if s.active != self.role_seat or self.role is None or self.role.draft is None:
        raise IllegalAction("only a role chooses among drafted powers", action)
    if action.power not in s.role_reserve:
        drawn = ", ".join(s.role_reserve)
        raise IllegalAction(f"{action.power!r} is not a drafted power ({drawn})", action)
    s.role_reserve = without(s.role_reserve, action.power)
    s.role_powers = (*s.role_powers, action.power)
    log((POWER_CHOSEN, self.role_seat, action.power, 0))
    if len(s.role_powers) >= self.role.draft[1] or not s.role_reserve:
        s.active = 0
        self._start_turn(s, log)


def _role_turn_end(self: Engine, s: State, log: Log) -> bool:
    """After every turn: the role's harvest (its own turn), the exchange, the instant win
    (rule 4.2.5, rule 4.3 c–d, A18). Returns whether the role has won."""
    role, race = self.role, self.role_race
    assert role is not None and race is not None
    if s.races[race].held:  # else nothing to change (its banner is copied only to change)
        rs = s.own_race(race)
        rs.hand += rs.held  # tokens set aside during a withdrawal rest in the hand zone again
        rs.held = 0
    ctx = None  # one context for the harvest and the win (it reads the state as it is)
    if role.harvest is not None and s.active == self.role_seat:
        amount, zone = role.harvest
        ctx = new_context(self, s, race)
        souls = max(0, amount(ctx))
        if souls:
            s.zones = {**s.zones, zone: s.zones[zone] + (SOUL,) * souls}
            log((TOKENS_TO_ZONE, zone, (SOUL,) * souls))
    if role.exchange is not None and len(s.zones[role.exchange[1]]) >= role.exchange[0]:
        count, zone, gain = role.exchange
        rs = s.own_race(race)
        pile = list(s.zones[zone])  # the zones are replaced, not changed (copy on write)
        tray = dict(s.box)  # the tray too: one new table for the whole exchange, not one a token
        while len(pile) >= count:
            taken = self._take_from_pile(pile, count, race)
            for kind in taken:
                if kind in tray:  # the role's tokens to its reserve, races' to their box
                    tray[kind] += 1
            gained = min(gain, tray[race])
            tray[race] -= gained
            rs.hand += gained
            log((EXCHANGED, zone, tuple(taken), race, gained))
        s.zones = {**s.zones, zone: tuple(pile)}
        s.box = tray
    won = role.won  # role.win's two sides compared in one function
    if won is None:
        return False
    kept = self._role_won
    if kept is None:  # the win reads more than the tray and the piles: asked every time
        return won(new_context(self, s, race) if ctx is None else ctx)
    # It reads only the tray and piles, which are replaced, never changed, when they change
    # (copy on write): the same two objects as last time give the same answer.
    box, zones = s.box, s.zones
    if kept[0] is box and kept[1] is zones:
        return kept[2]
    result = won(new_context(self, s, race) if ctx is None else ctx)
    self._role_won = (box, zones, result)
    return result


def _take_from_pile(pile: list[str], count: int, first: str) -> list[str]:
    """Take ``count`` tokens: ``first``'s kind first, then anonymous ones, then the
    oldest others (rule 4.5)."""
    taken: list[str] = []
    for wanted in (first, SOUL):  # the list's own search: no loop over the pile here
        while len(taken) < count and wanted in pile:
            pile.remove(wanted)
            taken.append(wanted)
    while len(taken) < count and pile:
        taken.append(pile.pop(0))
    return taken
