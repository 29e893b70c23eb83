from django.urls import path

from . import views, views_codes, views_ema

urlpatterns = [
    path("", views.event_list, name="events"),
    path("new/", views.event_new, name="event-new"),
    path("<int:event_id>/", views.event_detail, name="event"),
    path("<int:event_id>/register/", views.event_register, name="event-register"),
    path("<int:event_id>/withdraw/", views.event_withdraw, name="event-withdraw"),
    path("<int:event_id>/desk/", views.event_desk, name="event-desk"),
    path("<int:event_id>/board/", views.event_board, name="event-board"),
    path("<int:event_id>/cards/", views.event_cards, name="event-cards"),
    path("<int:event_id>/signs/", views.event_signs, name="event-signs"),
    path("<int:event_id>/results/", views.event_results, name="event-results"),
    path("<int:event_id>/ema/", views_ema.event_ema_page, name="event-ema-page"),
    path("<int:event_id>/ema.csv", views.event_ema, name="event-ema"),
    path("<int:event_id>/ema.xlsx", views.event_ema_xlsx, name="event-ema-xlsx"),
    path("<int:event_id>/code/", views.event_table_code, name="event-code"),
    path("<int:event_id>/codes/", views_codes.event_code_guesses, name="event-code-guesses"),
    path("rounds/<int:round_id>/clock/", views.round_clock, name="event-round-clock"),
    path("tables/<int:game_id>/", views.event_table, name="event-table"),
    path("tables/<int:game_id>/scorekeeper/", views.table_scorekeeper, name="event-table-scorekeeper"),
]
