"""Views of the tournaments: clock."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
