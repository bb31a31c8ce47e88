# SPDX-License-Identifier: GPL-3.0-or-later
"""Cross-validation of IDW or Adaptive IDW with shepard-cv: the summary as outputs, every point's residual as a layer."""

import json

from qgis.core import (
    QgsProcessing,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingOutputString,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterEnum,
    QgsProcessingParameterNumber,
    QgsProcessingParameterVectorDestination,
)

from .algorithm_base import ShepardAlgorithm, parameter_is_set
from .method_parameters import (
    add_aidw_parameters,
    add_idw_parameters,
    add_neighbourhood_parameters,
    aidw_method,
    idw_method,
)

_METHODS = (("idw", "IDW"), ("aidw", "Adaptive IDW"))
_OBJECTIVES = (("", "No"), ("rmse", "Lowest RMSE"), ("mae", "Lowest MAE"))
# shepard-cv --json's summary keys, as outputs.
_SUMMARY = (("N", "n", "Points predicted"), ("ME", "me", "Mean error (predicted − observed)"),
            ("MAE", "mae", "Mean absolute error"), ("RMSE", "rmse", "Root mean square error"),
            ("R2", "r2", "R² = 1 − SSres / SStot"))


class CrossValidationAlgorithm(ShepardAlgorithm):
    METHOD = "METHOD"
    FOLDS = "FOLDS"
    SEED = "SEED"
    OPTIMISE = "OPTIMISE"
    RESIDUALS = "RESIDUALS"
    BEST_METHOD = "BEST_METHOD"

    def name(self):
        return "crossvalidation"

    def displayName(self):  # noqa: N802 (QGIS's interface)
        return self.tr("Cross-validation")

    def shortHelpString(self):  # noqa: N802
        return self.tr(
            "<p>Predicts every point from the points outside its fold with IDW or Adaptive IDW and compares the "
            "prediction with the point's value (shepard-cv): leave-one-out by default (the held-out point leaves "
            "both AIDW's k nearest and the weighting), or random folds dealt by a seed, the same on every "
            "machine.</p>"
            "<p>The outputs N, ME (mean of predicted − observed), MAE, RMSE and R2 = 1 − SSres/SStot (empty when the "
            "values are all equal) summarise it; the residuals layer holds every point with observed, predicted, "
            "residual, alpha (the power its prediction used) and fold. With Tune, the method's parameters (IDW's "
            "power; AIDW's α1–α5, Rmin, Rmax and k) are tuned to the lowest RMSE or MAE, the summary is that of the "
            "best, and BEST_METHOD gives them as shepard-grid -a takes them.</p>"
            "<p>The IDW power applies to IDW, the AIDW parameters to Adaptive IDW; the neighbourhood options to both. "
            "Shepard's command-line tools are found on PATH or in the Shepard folder set in Processing options.</p>")

    def initAlgorithm(self, config=None):  # noqa: N802
        self.add_input_parameters(several_fields=False)
        method = QgsProcessingParameterEnum(self.METHOD, self.tr("Method"), [self.tr(label) for _, label in _METHODS],
                                            defaultValue=0)
        method.setHelp(self.tr("IDW (with the power below) or Adaptive IDW (with the AIDW parameters below)."))
        self.addParameter(method)
        add_idw_parameters(self)
        add_aidw_parameters(self)
        add_neighbourhood_parameters(self, nodata=False)
        folds = QgsProcessingParameterNumber(self.FOLDS, self.tr("Folds (0: leave-one-out)"),
                                             QgsProcessingParameterNumber.Integer, defaultValue=0, minValue=0)
        folds.setHelp(self.tr("0 for leave-one-out, else the number of random folds, from 2 to the number of "
                              "points."))
        self.addParameter(folds)
        seed = QgsProcessingParameterNumber(self.SEED, self.tr("Seed of the folds"),
                                            QgsProcessingParameterNumber.Integer, defaultValue=0, minValue=0)
        seed.setHelp(self.tr("Deals the points into random folds; the same seed gives the same folds everywhere."))
        seed.setFlags(seed.flags() | QgsProcessingParameterDefinition.FlagAdvanced)
        self.addParameter(seed)
        optimise = QgsProcessingParameterEnum(self.OPTIMISE, self.tr("Tune the parameters"),
                                              [self.tr(label) for _, label in _OBJECTIVES], defaultValue=0)
        optimise.setHelp(self.tr("Tune the method's parameters, starting from those given, to the lowest RMSE or "
                                 "MAE (shepard-cv --optimise, NLopt's BOBYQA within bounds)."))
        self.addParameter(optimise)
        self.add_backend_parameter()
        residuals = QgsProcessingParameterVectorDestination(self.RESIDUALS, self.tr("Residuals"),
                                                            QgsProcessing.TypeVectorPoint, optional=True,
                                                            createByDefault=True)
        residuals.setHelp(self.tr("Every point with its observed and predicted value, residual, alpha and fold, in "
                                  "the layer's CRS; the format follows the extension (.gpkg, .csv, .shp, ...)."))
        self.addParameter(residuals)
        for name, _, description in _SUMMARY:
            self.addOutput(QgsProcessingOutputNumber(name, self.tr(description)))
        self.addOutput(QgsProcessingOutputString(self.BEST_METHOD, self.tr("Tuned method (shepard-grid -a)")))

    def _method(self, parameters, context):
        if _METHODS[self.parameterAsEnum(parameters, self.METHOD, context)][0] == "aidw":
            return aidw_method(self, parameters, context)
        return idw_method(self, parameters, context)

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        layer, source = self.layer_arguments(parameters, self.INPUT, context, feedback)
        fields = self.field_names(parameters, context)
        arguments = layer + ["-zfield", fields[0], "-a", self._method(parameters, context), "--json"]
        folds = self.parameterAsInt(parameters, self.FOLDS, context)
        if folds != 0:
            arguments += ["--folds", str(folds), "--seed", str(self.parameterAsInt(parameters, self.SEED, context))]
        objective = _OBJECTIVES[self.parameterAsEnum(parameters, self.OPTIMISE, context)][0]
        if objective:
            arguments += ["--optimise", objective]
        arguments += self.backend_arguments(parameters, context)
        residuals = None
        if parameter_is_set(parameters, self.RESIDUALS):
            residuals = self.parameterAsOutputLayer(parameters, self.RESIDUALS, context)
        if residuals:
            arguments += ["-o", residuals]
        arguments.append(source)

        output = self.run_shepard_tool("shepard-cv", arguments, feedback)
        try:
            summary = json.loads(output)
        except ValueError as error:
            raise QgsProcessingException(self.tr("shepard-cv printed no summary that could be read ({}): {}").format(
                error, output.strip()))
        results = {name: summary.get(key) for name, key, _ in _SUMMARY}
        results[self.BEST_METHOD] = summary.get("method")
        for name, key, description in _SUMMARY:
            feedback.pushInfo("{}: {}".format(self.tr(description), summary.get(key)))
        if residuals:
            results[self.RESIDUALS] = residuals
        return results
