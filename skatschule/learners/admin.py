from django.contrib import admin

from .models import LearnerSettings, ReminderSent


@admin.register(LearnerSettings)
class LearnerSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "daily_goal", "time_zone", "reminders", "updated_at")
    list_filter = ("reminders", "daily_goal")
    search_fields = ("user__username",)


@admin.register(ReminderSent)
class ReminderSentAdmin(admin.ModelAdmin):
    list_display = ("user", "period", "due", "sent_at")
    search_fields = ("user__username", "period")
