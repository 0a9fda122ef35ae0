"""Views of the tournaments: console."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
