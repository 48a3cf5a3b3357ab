"""``{{ message.created_at|chat_time }}``: when a chat line was written, in the reader's time zone
(``durak_site.dates.ReaderTimeZoneMiddleware``) and language: the time alone today, else the date
and time, as the history shows its moves."""

from datetime import datetime

from django import template

from durak_site import dates

register = template.Library()


@register.filter
def chat_time(moment: datetime | None) -> str:
    return dates.in_a_list(moment) if moment is not None else ""
