/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-layer-panel.h"

#include "shepard-label-column.h"

struct _ShepardLayerPanel
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *grid; /* the one child, bound so that gtk_widget_dispose_template unparents it */
  GtkLabel *file_label, *layer_label, *count_label, *skipped_label, *crs_label, *duplicates_label;
  GtkWidget *duplicates_caption;
  GtkDropDown *field_dropdown;

  /* Owned */
  gboolean updating;
};

G_DEFINE_FINAL_TYPE (ShepardLayerPanel, shepard_layer_panel, GTK_TYPE_WIDGET)

enum {
  SIGNAL_FIELD_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GtkWidget *
shepard_layer_panel_new (void)
{
  return g_object_new (SHEPARD_TYPE_LAYER_PANEL, NULL);
}

void
shepard_layer_panel_show (ShepardLayerPanel *self, ShepardDocument *document)
{
  g_return_if_fail (SHEPARD_IS_LAYER_PANEL (self));
  g_return_if_fail (SHEPARD_IS_DOCUMENT (document));

  const ShepardPointLayer *points = shepard_document_get_points (document);
  g_autofree char *basename = g_path_get_basename (points->source);
  g_autofree char *count = g_strdup_printf ("%zu", points->count);
  g_autofree char *skipped = shepard_point_layer_describe_skipped (points);
  const char *crs = shepard_document_get_crs_name (document);

  gtk_label_set_text (self->file_label, basename);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->file_label), points->source);
  gtk_label_set_text (self->layer_label, points->layer_name);
  gtk_label_set_text (self->count_label, count);
  gtk_label_set_text (self->skipped_label, skipped != NULL ? skipped : "none");
  gtk_label_set_text (self->crs_label, crs);
  /* Points at one spot with different values: the surface takes their mean there and honours none of them. */
  ShepardDuplicateReport duplicates;
  gboolean has_duplicates = shepard_document_get_duplicates (document, &duplicates);
  g_autofree char *described = has_duplicates ? shepard_duplicate_report_describe (&duplicates) : NULL;
  gtk_label_set_text (self->duplicates_label, described != NULL ? described : "");
  gtk_widget_set_visible (GTK_WIDGET (self->duplicates_label), has_duplicates);
  gtk_widget_set_visible (self->duplicates_caption, has_duplicates);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->crs_label), crs);

  /* Filling the list selects its first field: that is not the user's choice. */
  self->updating = TRUE;
  const char *const *fields = shepard_document_get_numeric_fields (document);
  g_autoptr (GtkStringList) model = gtk_string_list_new (fields);
  gtk_drop_down_set_model (self->field_dropdown, G_LIST_MODEL (model));
  for (guint i = 0; fields[i] != NULL; i++)
    if (g_strcmp0 (fields[i], points->field_name) == 0)
      gtk_drop_down_set_selected (self->field_dropdown, i);
  self->updating = FALSE;
}

static void
on_field_selected (ShepardLayerPanel *self)
{
  GtkStringObject *item = gtk_drop_down_get_selected_item (self->field_dropdown);

  if (self->updating || item == NULL)
    return;
  g_signal_emit (self, signals[SIGNAL_FIELD_CHOSEN], 0, gtk_string_object_get_string (item));
}

void
shepard_layer_panel_align_labels (ShepardLayerPanel *self, GtkSizeGroup *labels)
{
  g_return_if_fail (SHEPARD_IS_LAYER_PANEL (self));
  shepard_label_column_share (GTK_GRID (self->grid), labels);
}

static void
shepard_layer_panel_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), SHEPARD_TYPE_LAYER_PANEL);
  G_OBJECT_CLASS (shepard_layer_panel_parent_class)->dispose (object);
}

static void
shepard_layer_panel_class_init (ShepardLayerPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = shepard_layer_panel_dispose;

  signals[SIGNAL_FIELD_CHOSEN] = g_signal_new ("field-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                               NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/shepard/Shepard/ui/shepard-layer-panel.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, ShepardLayerPanel, grid);
  gtk_widget_class_bind_template_child (widget_class, ShepardLayerPanel, file_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardLayerPanel, layer_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardLayerPanel, count_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardLayerPanel, skipped_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardLayerPanel, crs_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardLayerPanel, duplicates_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardLayerPanel, duplicates_caption);
  gtk_widget_class_bind_template_child (widget_class, ShepardLayerPanel, field_dropdown);
  gtk_widget_class_bind_template_callback (widget_class, on_field_selected);
}

static void
shepard_layer_panel_init (ShepardLayerPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
