from typing import TYPE_CHECKING

from django.contrib import admin

from .models import LearnerSettings, ReminderSent

if TYPE_CHECKING:  # django-stubs makes the admin classes generic; at run time they are not
    SettingsAdminBase = admin.ModelAdmin[LearnerSettings]
    ReminderAdminBase = admin.ModelAdmin[ReminderSent]
else:
    SettingsAdminBase = ReminderAdminBase = admin.ModelAdmin


@admin.register(LearnerSettings)
class LearnerSettingsAdmin(SettingsAdminBase):
    list_display = ("user", "daily_goal", "time_zone", "reminders", "updated_at")
    list_filter = ("reminders", "daily_goal")
    search_fields = ("user__username",)


@admin.register(ReminderSent)
class ReminderSentAdmin(ReminderAdminBase):
    list_display = ("user", "period", "due", "sent_at")
    search_fields = ("user__username", "period")
