"""Views of the tournaments: structures."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
