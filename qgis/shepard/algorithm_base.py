# SPDX-License-Identifier: GPL-3.0-or-later
"""What every Shepard algorithm shares: the point layer and its field, the backend, the layer as a file for the tool."""

from qgis.core import (
    QgsProcessing,
    QgsProcessingAlgorithm,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
)
from qgis.PyQt.QtCore import QCoreApplication

from .process_runner import run_tool
from .tools import find_tool

BACKEND_CHOICES = (("auto", "Automatic (CUDA when a GPU is present, else the CPU)"), ("cpu", "CPU"),
                   ("cuda", "CUDA"))

# Layers stored in these formats go to the tools as they are; others (memory layers, delimited text, databases, a
# selection or a filter) are first written to a GeoPackage, which the tools read through OGR.
_FILE_FORMATS_AS_THEY_ARE = ("gpkg", "shp", "geojson", "fgb", "sqlite", "gml")


def parameter_is_set(parameters, name):
    """Whether PARAMETERS give NAME a value: an optional parameter left empty is None, "" or a null QVariant."""
    value = parameters.get(name)
    if value is None:
        return False
    if isinstance(value, str):
        return value.strip() != ""
    is_null = getattr(value, "isNull", None)
    return not (callable(is_null) and is_null())


class ShepardAlgorithm(QgsProcessingAlgorithm):
    INPUT = "INPUT"
    FIELD = "FIELD"
    BACKEND = "BACKEND"

    def tr(self, text):
        return QCoreApplication.translate("Shepard", text)

    def createInstance(self):  # noqa: N802 (QGIS's interface)
        return type(self)()

    # Every Shepard algorithm interpolates: one group in the Processing toolbox.
    def group(self):
        return self.tr("Interpolation")

    def groupId(self):  # noqa: N802
        return "interpolation"

    def helpUrl(self):  # noqa: N802
        return "https://github.com/shepard-gis/shepard#qgis"

    def add_input_parameters(self, several_fields):
        source = QgsProcessingParameterFeatureSource(self.INPUT, self.tr("Point layer"),
                                                     [QgsProcessing.TypeVectorPoint])
        source.setHelp(self.tr("The points to interpolate. Layers that are not files OGR reads as they are (memory "
                               "layers, delimited text, databases, a selection) go to Shepard as a temporary "
                               "GeoPackage."))
        self.addParameter(source)
        field = QgsProcessingParameterField(self.FIELD,
                                            self.tr("Value fields") if several_fields else self.tr("Value field"),
                                            parentLayerParameterName=self.INPUT,
                                            type=QgsProcessingParameterField.Any,
                                            allowMultiple=several_fields)
        # Any type: a text column of numbers with a few "NA" cells is a value field to Shepard (meuse's om); a column
        # that is not numbers gets shepard-grid's own message.
        field.setHelp(self.tr("The numeric field to interpolate (a text column of numbers with empty or NA cells "
                              "counts); several fields give one band each, described by "
                              "the field's name (shepard-grid -zfield a,b,c). Rows whose value is empty, NA or "
                              "unreadable are skipped for that field only.") if several_fields else
                      self.tr("The numeric field to predict (a text column of numbers with empty or NA cells "
                              "counts). Rows whose value is empty, NA or unreadable are "
                              "skipped."))
        self.addParameter(field)

    def add_backend_parameter(self):
        backend = QgsProcessingParameterEnum(self.BACKEND, self.tr("Backend"),
                                             [self.tr(label) for _, label in BACKEND_CHOICES], defaultValue=0)
        backend.setHelp(self.tr("Where Shepard computes: automatic picks CUDA when a GPU is usable and says why "
                                "it falls back to the CPU otherwise."))
        backend.setFlags(backend.flags() | QgsProcessingParameterDefinition.FlagAdvanced)
        self.addParameter(backend)

    def layer_arguments(self, parameters, name, context, feedback):
        """The tool's arguments that name the layer of parameter NAME (-l LAYER when needed) and its path."""
        path, layer_name = self.parameterAsCompatibleSourceLayerPathAndLayerName(
            parameters, name, context, list(_FILE_FORMATS_AS_THEY_ARE), "gpkg", feedback)
        return (["-l", layer_name] if layer_name else []), path

    def field_names(self, parameters, context):
        return self.parameterAsFields(parameters, self.FIELD, context)

    def backend_arguments(self, parameters, context):
        return ["--backend", BACKEND_CHOICES[self.parameterAsEnum(parameters, self.BACKEND, context)][0]]

    def run_shepard_tool(self, tool, arguments, feedback):
        """Runs shepard-grid or shepard-cv with ARGUMENTS and returns its standard output."""
        return run_tool(find_tool(tool), arguments, feedback)
