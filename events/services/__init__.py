"""Tournament writes, one module per concern (as ``referee/services/``): the event, registration
and check-in, seating, the round clock, a table's principals (codes, phones, the round in play),
its report (the one state machine of a table's own result) and its hands. Each write runs in one
transaction, audited, its actor (kyoku.principals: a user, a table phone, the system) checked in
the event's league.

The event's games are league games (league.services.game_create / game_result_record), so a
result confirmed by a table updates the standings, ratings and histories as any result does."""

from .clock import CLOCK_ACTIONS, END_AND_START, round_clock_set, round_end_and_start, round_schedule
from .cut import cut_decide, stage_seating_stale
from .time_up import round_time_up_record
from .common import EVENT_DIVISION, event_board_bump, event_division, round_games, round_played
from .event import MAX_PLAYERS, event_create, event_status_set
from .registration import checkin_set, registration_add, registration_withdraw
from .seating import history_days, seated_players, seating_by_standings, seating_plan, stage_order
from .table_hands import table_hand_add, table_hand_correct, table_hand_preview, table_hands_finish
from .table_reports import (
    report_data,
    table_report_confirm,
    table_report_dispute,
    table_report_submit,
    table_result_enter,
)
from .tables import (
    CODES_KEY,
    TABLE_CODE_LENGTH,
    round_in_play,
    seat_of,
    seats_for,
    table_code,
    table_code_guard,
    table_code_miss,
    table_code_normal,
    table_code_valid,
    table_phone_for,
)

__all__ = [
    "CLOCK_ACTIONS",
    "CODES_KEY",
    "END_AND_START",
    "EVENT_DIVISION",
    "MAX_PLAYERS",
    "TABLE_CODE_LENGTH",
    "checkin_set",
    "cut_decide",
    "event_board_bump",
    "event_create",
    "event_division",
    "event_status_set",
    "history_days",
    "registration_add",
    "registration_withdraw",
    "report_data",
    "round_clock_set",
    "round_end_and_start",
    "round_games",
    "round_in_play",
    "round_played",
    "round_schedule",
    "round_time_up_record",
    "seat_of",
    "seated_players",
    "seating_by_standings",
    "seating_plan",
    "seats_for",
    "stage_order",
    "stage_seating_stale",
    "table_code",
    "table_code_guard",
    "table_code_miss",
    "table_code_normal",
    "table_code_valid",
    "table_hand_add",
    "table_hand_correct",
    "table_hand_preview",
    "table_hands_finish",
    "table_phone_for",
    "table_report_confirm",
    "table_report_dispute",
    "table_report_submit",
    "table_result_enter",
]
